#include "plural_rules.h"

#include <string.h>
#include <unicode/uenum.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

int paywall_plural_select(const char *locale, double number, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) return -1;
    UChar keyword[32];
    int32_t length = uplrules_select(rules, number, keyword, 32, &status);
    uplrules_close(rules);
    if (U_FAILURE(status) || length >= capacity) return -1;
    u_austrncpy(out, keyword, length);
    out[length] = '\0';
    return 0;
}

int paywall_plural_keywords(const char *locale, char *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) return -1;
    UEnumeration *keywords = uplrules_getKeywords(rules, &status);
    int used = 0, result = 0;
    out[0] = '\0';
    const char *keyword;
    int32_t length;
    while (U_SUCCESS(status) && (keyword = uenum_next(keywords, &length, &status)) != NULL) {
        if (used + length + 2 > capacity) { result = -1; break; }
        if (used > 0) out[used++] = ' ';
        memcpy(out + used, keyword, length);
        used += length;
        out[used] = '\0';
    }
    uenum_close(keywords);
    uplrules_close(rules);
    return U_FAILURE(status) ? -1 : result;
}
