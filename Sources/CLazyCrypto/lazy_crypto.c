#include "lazy_crypto.h"

#include <dlfcn.h>
#include <limits.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <pthread.h>
#include <stdio.h>

// Every libcrypto function called. OpenSSL's headers give their types (typeof), so a call
// here is checked against the real prototype; nothing links libcrypto.
#define CRYPTO_FUNCTIONS(X)                                                                         \
    X(BIO_free) X(BIO_new_mem_buf) X(ERR_error_string_n) X(ERR_get_error) X(EVP_DigestSign)         \
    X(EVP_DigestSignInit) X(EVP_DigestVerify) X(EVP_DigestVerifyInit) X(EVP_MD_CTX_free)            \
    X(EVP_MD_CTX_new) X(EVP_PKEY_free) X(EVP_PKEY_get_id) X(EVP_PKEY_get_raw_public_key)            \
    X(EVP_PKEY_new_raw_public_key) X(EVP_sha256) X(HMAC) X(PEM_read_bio_PrivateKey)

#define DECLARE(name) static __typeof__(name) *real_##name;
CRYPTO_FUNCTIONS(DECLARE)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char error[512] = "";

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(error, sizeof error,
                 "cannot load libcrypto.so.3 (OpenSSL 3), which checks signed licenses: %s. Install it: "
                 "libssl3 on Debian and Ubuntu, openssl-libs on Fedora, openssl on Arch",
                 dlerror());
        return;
    }
#define RESOLVE(name)                                                                      \
    if ((real_##name = (__typeof__(name) *)dlsym(library, #name)) == NULL) {               \
        snprintf(error, sizeof error, "the libcrypto.so.3 found has no %s: it is not OpenSSL 3", #name); \
        return;                                                                            \
    }
    CRYPTO_FUNCTIONS(RESOLVE)
    loaded = 0;
}

int paywall_crypto_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *paywall_crypto_error(void) { return error; }

int paywall_ed25519_verify(const unsigned char public_key[32], const unsigned char *signature,
                           size_t signature_length, const unsigned char *message, size_t message_length) {
    if (paywall_crypto_load() != 0) return -1;
    EVP_PKEY *key = real_EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, public_key, 32);
    EVP_MD_CTX *context = real_EVP_MD_CTX_new();
    int valid = 0;
    // Ed25519 signs the message itself (no digest: the md argument is NULL).
    if (key != NULL && context != NULL && real_EVP_DigestVerifyInit(context, NULL, NULL, NULL, key) == 1) {
        valid = real_EVP_DigestVerify(context, signature, signature_length, message, message_length) == 1;
    }
    // A refused signature leaves an error on OpenSSL's thread queue: drained, so it is not
    // reported against a later call.
    while (real_ERR_get_error() != 0) {}
    real_EVP_MD_CTX_free(context);
    real_EVP_PKEY_free(key);
    return valid;
}

// The first error on OpenSSL's queue as the reason, the queue drained.
static void keep_error(const char *what) {
    unsigned long code = real_ERR_get_error();
    char reason[256] = "no reason given";
    if (code != 0) real_ERR_error_string_n(code, reason, sizeof reason);
    snprintf(error, sizeof error, "%s: %s", what, reason);
    while (real_ERR_get_error() != 0) {}
}

int paywall_ed25519_sign(const char *pem, size_t pem_length, const unsigned char *message, size_t message_length,
                         unsigned char signature[64], unsigned char public_key[32]) {
    if (paywall_crypto_load() != 0) return -1;
    if (pem_length > INT_MAX) return -2;
    BIO *bio = real_BIO_new_mem_buf(pem, (int)pem_length);
    // No password callback and no password: an encrypted key is refused, never prompted for.
    EVP_PKEY *key = bio == NULL ? NULL : real_PEM_read_bio_PrivateKey(bio, NULL, NULL, (void *)"");
    real_BIO_free(bio);
    if (key == NULL) {
        keep_error("not a PEM private key");
        return -2;
    }
    int result = 0;
    EVP_MD_CTX *context = NULL;
    size_t signature_length = 64, public_length = 32;
    if (real_EVP_PKEY_get_id(key) != EVP_PKEY_ED25519) {
        result = -3;
    } else if ((context = real_EVP_MD_CTX_new()) == NULL
               || real_EVP_DigestSignInit(context, NULL, NULL, NULL, key) != 1
               || real_EVP_DigestSign(context, signature, &signature_length, message, message_length) != 1
               || signature_length != 64
               || real_EVP_PKEY_get_raw_public_key(key, public_key, &public_length) != 1 || public_length != 32) {
        keep_error("signing failed");
        result = -4;
    }
    real_EVP_MD_CTX_free(context);
    real_EVP_PKEY_free(key);
    return result;
}

int paywall_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *message,
                        size_t message_length, unsigned char mac[32]) {
    if (paywall_crypto_load() != 0 || key_length > INT_MAX) return -1;
    unsigned int length = 32;
    if (real_HMAC(real_EVP_sha256(), key, (int)key_length, message, message_length, mac, &length) == NULL
        || length != 32) {
        while (real_ERR_get_error() != 0) {}
        return -1;
    }
    return 0;
}
