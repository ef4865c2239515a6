// CLDR plural rules from Debian's ICU, behind plain C types: ICU's own headers cannot be
// imported into Swift beside Foundation's bundled ICU (their enums clash).
#ifndef PAYWALL_PLURAL_RULES_H
#define PAYWALL_PLURAL_RULES_H

/// Writes the plural category of `number` in `locale` ("one", "few", ...) into `out`.
/// Returns 0, or -1 when ICU has no rules for the locale or `out` is too small.
int paywall_plural_select(const char *locale, double number, char *out, int capacity);

/// Writes the categories `locale` uses, space-separated ("few many one other"), into `out`.
/// Returns 0, or -1 on failure.
int paywall_plural_keywords(const char *locale, char *out, int capacity);

#endif
