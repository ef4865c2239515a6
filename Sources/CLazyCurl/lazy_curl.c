#include "lazy_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// The sonames tried, in order: the OpenSSL build (Debian's libcurl4, Fedora, Arch, ...), then
// Debian's GnuTLS build (libcurl3-gnutls), which some systems carry alone.
static const char *const sonames[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};

// Every curl function the runtime's HTTP client (PaywallCore's HTTPClient, through CCurl's
// header) calls. Nothing imports FoundationNetworking (URLSession), so Foundation calls none.
#define CURL_FUNCTIONS(X)                                                                  \
    X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_perform)        \
    X(curl_easy_setopt) X(curl_easy_strerror) X(curl_global_init) X(curl_slist_append)      \
    X(curl_slist_free_all)

#define DECLARE(name) static void *real_##name;
CURL_FUNCTIONS(DECLARE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char error[512] = "";

static void load(void) {
    void *library = NULL;
    for (size_t i = 0; i < sizeof sonames / sizeof *sonames && library == NULL; i++) {
        library = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(error, sizeof error,
                 "cannot load libcurl (libcurl.so.4 or libcurl-gnutls.so.4): %s. Install it: libcurl4 "
                 "on Debian and Ubuntu, libcurl on Fedora and Arch",
                 dlerror());
        return;
    }
#define RESOLVE(name)                                                                             \
    if ((real_##name = dlsym(library, #name)) == NULL) {                                         \
        snprintf(error, sizeof error, "the libcurl found has no %s: it is older than 7.62", #name); \
        return;                                                                                  \
    }
    CURL_FUNCTIONS(RESOLVE)
    loaded = 0;
}

int paywall_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *paywall_curl_error(void) { return error; }

// A curl function called without libcurl: Foundation has no way to report it, so say so and
// end as the dynamic loader would have at start (status 127).
static void need(void) {
    if (paywall_curl_load() != 0) {
        fprintf(stderr, "paywall: %s\n", error);
        _exit(127);
    }
}

// The forwarders. curl's types are left opaque (pointers, int and long are what crosses).
// The variadic ones take one argument after the option, which curl reads as a long, a
// pointer or a curl_off_t: on x86-64 and aarch64 each is one 64-bit word, forwarded as one.
// libcurl is loaded (need) before its function pointer is read.
#define CALL(signature, name, ...) (need(), ((signature)real_##name))(__VA_ARGS__)
typedef void *ptr;

void curl_easy_cleanup(ptr handle) { CALL(void (*)(ptr), curl_easy_cleanup, handle); }
ptr curl_easy_init(void) { return CALL(ptr (*)(void), curl_easy_init); }
int curl_easy_perform(ptr handle) { return CALL(int (*)(ptr), curl_easy_perform, handle); }
const char *curl_easy_strerror(int code) { return CALL(const char *(*)(int), curl_easy_strerror, code); }
int curl_global_init(long flags) { return CALL(int (*)(long), curl_global_init, flags); }
ptr curl_slist_append(ptr list, const char *text) {
    return CALL(ptr (*)(ptr, const char *), curl_slist_append, list, text);
}
void curl_slist_free_all(ptr list) { CALL(void (*)(ptr), curl_slist_free_all, list); }

#define ONE_WORD_AFTER(name, first_type)                                      \
    int name(ptr handle, first_type option, ...) {                            \
        va_list arguments;                                                    \
        va_start(arguments, option);                                          \
        void *argument = va_arg(arguments, void *);                           \
        va_end(arguments);                                                    \
        return CALL(int (*)(ptr, first_type, ...), name, handle, option, argument); \
    }
ONE_WORD_AFTER(curl_easy_setopt, int)
ONE_WORD_AFTER(curl_easy_getinfo, int)
