import Foundation

extension Locale {
    /// How this locale writes the symbol of currency `code` (`$`, `€`, `US$` in ar_EG).
    func currencySymbol(for code: String) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = self
        formatter.currencyCode = code
        return formatter.currencySymbol ?? code
    }
}
