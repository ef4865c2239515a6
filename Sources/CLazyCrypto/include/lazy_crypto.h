// The few cryptographic operations signed offline licenses need, from the system's OpenSSL 3
// (libcrypto.so.3), loaded at their first use rather than at start, like CLazyCurl: no binary
// needs libcrypto to start, and a catalog without `license_public_key` never loads it.
//
// These are the runtime's own functions (paywall_ prefix), not OpenSSL's names: defining
// OpenSSL's symbols here would interpose on the libcrypto that libcurl or WebKit load.
// Nothing here is hand-written cryptography: each forwards to OpenSSL's EVP and HMAC calls.
#ifndef PAYWALL_LAZY_CRYPTO_H
#define PAYWALL_LAZY_CRYPTO_H

#include <stddef.h>

/// Loads libcrypto now; returns 0, or -1 when it could not be loaded (the reason is then in
/// `paywall_crypto_error()`).
int paywall_crypto_load(void);

/// Why libcrypto could not be loaded, or why the last signing failed ("" before either).
const char *paywall_crypto_error(void);

/// Whether `signature` is `public_key`'s Ed25519 signature of `message`: 1 yes, 0 no, -1
/// libcrypto is missing (see `paywall_crypto_error()`).
int paywall_ed25519_verify(const unsigned char public_key[32], const unsigned char *signature,
                           size_t signature_length, const unsigned char *message, size_t message_length);

/// Signs `message` with the Ed25519 private key in `pem` (PKCS #8 PEM, as `openssl genpkey
/// -algorithm ed25519` writes it) into `signature`, and writes the key's public half to
/// `public_key`. Returns 0; -1 libcrypto is missing; -2 `pem` is not a private key; -3 it is
/// not an Ed25519 key; -4 signing failed (the reason in `paywall_crypto_error()`).
int paywall_ed25519_sign(const char *pem, size_t pem_length, const unsigned char *message, size_t message_length,
                         unsigned char signature[64], unsigned char public_key[32]);

/// HMAC-SHA256 of `message` keyed by `key` into `mac`. Returns 0, or -1 when libcrypto is
/// missing or refused.
int paywall_hmac_sha256(const unsigned char *key, size_t key_length, const unsigned char *message,
                        size_t message_length, unsigned char mac[32]);

#endif
