#ifndef AUTHTUI_COPENSSL_SHIM_H
#define AUTHTUI_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/x509.h>

// EVP_PKEY_Q_keygen is variadic, and Swift cannot call C variadic functions.
static inline EVP_PKEY *authtui_generate_rsa_key(size_t bits) {
  return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", bits);
}

// EVP_PKEY_Q_keygen is variadic, and Swift cannot call C variadic functions.
static inline EVP_PKEY *authtui_generate_p256_key(void) {
  return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
}

// OPENSSL_free is a macro (it passes __FILE__ and __LINE__ to CRYPTO_free), which Swift does not import.
static inline void authtui_openssl_free(void *pointer) { OPENSSL_free(pointer); }

#endif
