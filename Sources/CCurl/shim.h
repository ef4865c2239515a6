// libcurl, the runtime's one HTTP client. curl_easy_setopt and curl_easy_getinfo are variadic,
// which Swift cannot call: these wrappers give each argument type a function of its own.
#include <curl/curl.h>

static inline CURLcode ccurl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode ccurl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

/// CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode ccurl_set_write_function(CURL *curl, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(curl, option, function);
}

static inline CURLcode ccurl_set_progress_function(CURL *curl, curl_xferinfo_callback function) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, function);
}

static inline long ccurl_response_code(CURL *curl) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

/// The Content-Length the answer declared, -1 when it declared none.
static inline curl_off_t ccurl_content_length(CURL *curl) {
    curl_off_t length = -1;
    curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    return length;
}
