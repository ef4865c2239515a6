// libcurl, loaded when the runtime's HTTP client first calls it rather than at start.
//
// PaywallCore's HTTPClient calls libcurl (CCurl is its header alone). Linked normally,
// libcurl.so.4 and its ~30 libraries (TLS, Kerberos, LDAP, ...) load at every start, and the
// binary asks for the OpenSSL build's symbol versions (CURL_OPENSSL_4), which other builds of
// libcurl do not have. lazy_curl.c defines the curl functions Foundation calls; the first call
// loads libcurl.so.4 (or libcurl-gnutls.so.4) with dlopen and forwards to it.
#ifndef PAYWALL_LAZY_CURL_H
#define PAYWALL_LAZY_CURL_H

/// Loads libcurl now; returns 0, or -1 when no libcurl could be loaded (the reason is then in
/// `paywall_curl_error()`).
int paywall_curl_load(void);

/// Why libcurl could not be loaded ("" before a failed load).
const char *paywall_curl_error(void);

#endif
