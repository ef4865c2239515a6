import CGtk
import Foundation
import PaywallCore
import XCTest

@testable import PaywallHost

/// A signed license given to the license-key panel as a file or a paste, through its real
/// widgets in a window: chosen in the file chooser, dropped (a file's URI or its text, emitted
/// as GTK's `drag-data-received` with real selection data), or pasted over several lines. Too
/// big, binary or unreadable files are refused in the panel, unread and losing nothing typed.
final class LicenseKeyPanelFileTests: XCTestCase {
    private var dir: URL!
    /// The last panel's window.
    private var window: UnsafeMutablePointer<GtkWidget>?
    override func setUpWithError() throws { dir = try makeTemporaryDirectory("LicenseKeyPanelFileTests") }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// A Keygen license file as Keygen writes it: 64 base64 characters a line, CRLF here.
    static let keygenBody = String(
        repeating: "eyJlbmMiOiJBQUFBIiwic2lnIjoiQkJCQiIsImFsZyI6ImFlcy0yNTYtZ2NtK2VkMjU1MTkifQ==", count: 60)
    static var keygenFile: String {
        var lines = ["-----BEGIN LICENSE FILE-----"]
        var rest = Substring(keygenBody)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END LICENSE FILE-----")
        return lines.joined(separator: "\r\n") + "\r\n"
    }
    static let canonicalKeygen = "-----BEGIN LICENSE FILE-----\n\(keygenBody)\n-----END LICENSE FILE-----"

    /// The panel asking for a key (a restore) in a window of its own, in `locale`; `answers`
    /// gets each answer.
    @MainActor
    private func panel(locale: String = "en") throws -> (LicenseKeyPromptView, answers: () -> [String?]) {
        let strings = try StringTable(directory: packageRoot.appendingPathComponent("locales"), locale: locale)
        let panel = LicenseKeyPromptView(openURL: { _ in })
        let made = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_container_add(gcast(made), panel.widget)
        window = made
        let address = UInt(bitPattern: made)
        addTeardownBlock { @MainActor in gtk_widget_destroy(UnsafeMutablePointer(bitPattern: address)) }
        var answers: [String?] = []
        panel.show(LicenseKeyForm(LicenseKeyRequest(purpose: .restore), strings: strings), strings: strings) {
            answers.append($0)
        }
        gtk_widget_show(made)
        return (panel, { answers })
    }

    private func write(_ data: Data, _ name: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    @MainActor
    func testAChosenLicenseFileIsTheAnswerAsIfTyped() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        panel.takeFile(path: try write(Data(Self.keygenFile.utf8), "Lumen Pro.lic"))
        XCTAssertEqual(answers(), [Self.canonicalKeygen], "one line of base64 between the BEGIN and END lines")
        XCTAssertTrue(panel.isWorking, "checked like a typed key")
        XCTAssertEqual(panel.fieldText, Self.canonicalKeygen, "the field shows what was taken")
    }

    @MainActor
    func testOurSignedLicenseInATextFileIsTrimmed() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        panel.takeFile(path: try write(Data("\n  eyJsaWNlbnNlIjoiMSJ9.c2lnbmF0dXJl_-  \n".utf8), "license.txt"))
        XCTAssertEqual(answers(), ["eyJsaWNlbnNlIjoiMSJ9.c2lnbmF0dXJl_-"])
    }

    @MainActor
    func testAFileTooBigIsRefusedBeforeItIsReadAndTheTypedKeyStays() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        panel.type("ABC-123")
        // 1 GB that takes no disk (sparse): read whole, it would take 1 GB of memory.
        let path = dir.appendingPathComponent("backup.img").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        panel.takeFile(path: path)
        XCTAssertEqual(
            panel.problemText,
            "“backup.img” is 1048576 KB, too big for a license file (at most 64 KB). "
                + "Choose the license file from your receipt email, or paste your license key.")
        XCTAssertEqual(answers(), [])
        XCTAssertEqual(panel.fieldText, "ABC-123", "nothing typed is lost")
        XCTAssertFalse(panel.isWorking)

        // One byte over the limit.
        panel.takeFile(path: try write(Data(repeating: 0x41, count: LicenseKeyStore.maxLicenseFileBytes + 1), "big.lic"))
        XCTAssertEqual(panel.problemText?.hasPrefix("“big.lic” is 65 KB, too big"), true, panel.problemText ?? "")
        XCTAssertEqual(answers(), [])
    }

    @MainActor
    func testBinaryAndUnreadableFilesAreRefusedInWords() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        panel.type("ABC-123")
        let notLicense = "is not a license file. Choose the license file from your receipt email, or paste your license key."
        panel.takeFile(path: try write(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]), "photo.png"))
        XCTAssertEqual(panel.problemText, "“photo.png” \(notLicense)")
        panel.takeFile(path: try write(Data([0x4C, 0x69, 0xFF, 0xFE, 0x63]), "latin1.txt"))
        XCTAssertEqual(panel.problemText, "“latin1.txt” \(notLicense)", "not UTF-8")
        panel.takeFile(path: try write(Data(), "empty.lic"))
        XCTAssertEqual(panel.problemText, "“empty.lic” \(notLicense)")
        panel.takeFile(path: dir.path)
        XCTAssertEqual(panel.problemText, "“\(dir.lastPathComponent)” \(notLicense)", "a folder")
        panel.takeFile(path: dir.appendingPathComponent("gone.lic").path)
        XCTAssertEqual(
            panel.problemText,
            "“gone.lic” could not be read. Check that it still exists and that you may open it, or choose another file.")
        XCTAssertEqual(answers(), [])
        XCTAssertEqual(panel.fieldText, "ABC-123")
    }

    /// A Keygen file pasted into the field arrives with its line breaks (or without them, from
    /// a program that joined the lines); either way the answer is the one canonical text.
    @MainActor
    func testAPastedLicenseFileOverSeveralLinesIsMadeWhole() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        XCTAssertGreaterThan(Self.keygenFile.utf8.count, LicenseKeyStore.maxKeyBytes, "longer than any key")
        panel.type(Self.keygenFile)
        XCTAssertEqual(panel.fieldText, Self.keygenFile, "the field keeps all of it, line breaks included")
        panel.pressActivate()
        XCTAssertEqual(answers(), [Self.canonicalKeygen])

        let (again, more) = try self.panel()
        again.type(Self.keygenFile.replacingOccurrences(of: "\r\n", with: " "))
        again.pressActivate()
        XCTAssertEqual(more(), [Self.canonicalKeygen])
    }

    @MainActor
    func testALongPasteThatIsNoLicenseIsRefusedAndKept() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        let email = String(repeating: "Thank you for your purchase. ", count: 200)
        panel.type(email)
        panel.pressActivate()
        XCTAssertEqual(
            panel.problemText,
            "This is too long to be a license key. Paste only the key from your receipt email, or choose your license file.")
        XCTAssertEqual(answers(), [])
        XCTAssertEqual(panel.fieldText, email)
    }

    // MARK: Drops

    /// Emits `drag-data-received` on `target` as GTK does at a drop, with selection data GTK
    /// made: the clipboard's contents for `target` type, offered by `offer`. (A real XDND drag
    /// needs a second client moving the pointer; this is the signal it ends in.)
    @MainActor
    private func drop(on target: UnsafeMutablePointer<GtkWidget>, offer: (OpaquePointer) -> Void, as type: String) throws {
        let clipboard = try XCTUnwrap(gtk_clipboard_get(gdk_atom_intern("PAYWALL_TEST_DROP", 0)))
        offer(clipboard)
        let selection = try XCTUnwrap(gtk_clipboard_wait_for_contents(clipboard, gdk_atom_intern(type, 0)))
        defer { gtk_selection_data_free(selection) }
        var values = [GValue](repeating: GValue(), count: 7)
        g_value_init(&values[0], gtk_widget_get_type())
        g_value_set_object(&values[0], UnsafeMutableRawPointer(target))
        g_value_init(&values[1], gdk_drag_context_get_type())
        for index in [2, 3] { g_value_init(&values[index], GType(6 << 2)) }  // G_TYPE_INT: x, y
        g_value_init(&values[4], gtk_selection_data_get_type())
        g_value_set_boxed(&values[4], UnsafeRawPointer(selection))
        for index in [5, 6] { g_value_init(&values[index], GType(7 << 2)) }  // G_TYPE_UINT: info, time
        g_signal_emitv(&values, g_signal_lookup("drag-data-received", gtk_widget_get_type()), 0, nil)
        for index in 0..<7 { g_value_unset(&values[index]) }
    }

    @MainActor
    private func dropURIs(_ uris: [String], on target: UnsafeMutablePointer<GtkWidget>) throws {
        URIOffer.uris = uris
        try drop(
            on: target,
            offer: { clipboard in
                var entry = GtkTargetEntry(target: strdup("text/uri-list"), flags: 0, info: 0)
                defer { free(entry.target) }
                _ = gtk_clipboard_set_with_data(
                    clipboard, &entry, 1,
                    { _, selection, _, _ in
                        var strings = URIOffer.uris.map { strdup($0) } + [nil]
                        defer { for string in strings { free(string) } }
                        _ = gtk_selection_data_set_uris(selection, &strings)
                    }, nil, nil)
            }, as: "text/uri-list")
    }

    /// What the clipboard offers as a text/uri-list (its C callback captures nothing).
    private enum URIOffer { nonisolated(unsafe) static var uris: [String] = [] }

    @MainActor
    func testADroppedFileIsReadLikeAChosenOne() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        panel.type("ABC-123")
        let png = try write(Data([0x89, 0x50, 0x4E, 0x47, 0, 0]), "photo.png")
        try dropURIs([URL(fileURLWithPath: png).absoluteString], on: panel.widget)
        XCTAssertEqual(panel.problemText?.hasPrefix("“photo.png” is not a license file."), true, panel.problemText ?? "")
        XCTAssertEqual(panel.fieldText, "ABC-123")
        try dropURIs(["https://example.com/license.lic"], on: panel.widget)
        XCTAssertEqual(panel.problemText?.hasPrefix("“https://example.com/license.lic” is not a license file."), true)
        XCTAssertEqual(answers(), [])

        let license = try write(Data(Self.keygenFile.utf8), "Lumen Pro.lic")
        try dropURIs([URL(fileURLWithPath: license).absoluteString], on: panel.widget)
        XCTAssertEqual(answers(), [Self.canonicalKeygen])
    }

    @MainActor
    func testDroppedTextOnTheFieldIsTheAnswer() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        let entry = try XCTUnwrap(Self.entry(in: panel.widget))
        try drop(on: entry, offer: { gtk_clipboard_set_text($0, Self.keygenFile, -1) }, as: "UTF8_STRING")
        XCTAssertEqual(answers(), [Self.canonicalKeygen], "the panel took it, not the field's own insert")
    }

    @MainActor
    func testThePanelAndItsFieldTakeFileAndTextDrops() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, _) = try panel()
        for target in [panel.widget, try XCTUnwrap(Self.entry(in: panel.widget))] {
            let targets = try XCTUnwrap(gtk_drag_dest_get_target_list(target))
            for type in ["text/uri-list", "text/plain", "UTF8_STRING"] {
                XCTAssertNotEqual(gtk_target_list_find(targets, gdk_atom_intern(type, 0), nil), 0, type)
            }
        }
    }

    @MainActor
    private static func entry(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        if g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(widget)), gtk_entry_get_type()) != 0 { return widget }
        guard g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(widget)), gtk_container_get_type()) != 0,
            let children = gtk_container_get_children(gcast(widget))
        else { return nil }
        defer { g_list_free(children) }
        var node: UnsafeMutablePointer<GList>? = children
        while let current = node {
            if let found = entry(in: current.pointee.data.assumingMemoryBound(to: GtkWidget.self)) { return found }
            node = current.pointee.next
        }
        return nil
    }

    // MARK: The file chooser

    @MainActor
    func testChooseLicenseFileOpensANativeChooserOverThePanelsWindow() async throws {
        guard try startToolkitOnDisplay() else { return }
        keepChooserSettingsInMemory()
        let (panel, answers) = try panel()
        panel.pressChooseFile()
        let chooser = try XCTUnwrap(panel.fileChooser)
        let native: UnsafeMutablePointer<GtkNativeDialog> = try XCTUnwrap(gcast(chooser))
        XCTAssertEqual(String(cString: gtk_native_dialog_get_title(native)), "Choose Your License File")
        XCTAssertEqual(UnsafeMutableRawPointer(gtk_native_dialog_get_transient_for(native)), UnsafeMutableRawPointer(window))
        XCTAssertEqual(gtk_native_dialog_get_modal(native), 1)
        XCTAssertEqual(gtk_native_dialog_get_visible(native), 1)
        XCTAssertEqual(String(cString: gtk_file_chooser_native_get_accept_label(chooser)), "Use This File")
        let filter = try XCTUnwrap(gtk_file_chooser_get_filter(chooser))
        XCTAssertEqual(String(cString: gtk_file_filter_get_name(filter)), "All files")
        panel.pressChooseFile()
        XCTAssertEqual(panel.fileChooser, chooser, "one chooser at a time")

        // Without a portal the native chooser is GTK's own dialog: pick the file there and accept.
        let license = try write(Data(Self.keygenFile.utf8), "Lumen Pro.lic")
        let dialog = try XCTUnwrap(Self.fileChooserDialog())
        XCTAssertEqual(gtk_file_chooser_select_filename(OpaquePointer(dialog), license), 1)
        _ = await runLoop { Self.selectedFile(dialog) == license }
        gtk_dialog_response(gcast(dialog), GTK_RESPONSE_ACCEPT.rawValue)
        XCTAssertNil(panel.fileChooser, "closed once it answered")
        XCTAssertEqual(answers(), [Self.canonicalKeygen])
    }

    @MainActor
    func testCancellingTheChooserKeepsThePanelAsking() async throws {
        guard try startToolkitOnDisplay() else { return }
        let (panel, answers) = try panel()
        keepChooserSettingsInMemory()
        panel.type("ABC-123")
        panel.pressChooseFile()
        let dialog = try XCTUnwrap(Self.fileChooserDialog())
        gtk_dialog_response(gcast(dialog), GTK_RESPONSE_CANCEL.rawValue)
        XCTAssertNil(panel.fileChooser)
        XCTAssertEqual(answers(), [])
        XCTAssertEqual(panel.fieldText, "ABC-123")
        XCTAssertNil(panel.problemText)
    }

    @MainActor
    private static func selectedFile(_ dialog: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let name = gtk_file_chooser_get_filename(OpaquePointer(dialog)) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// GTK's own chooser saves its settings (sort column, window size) when it closes: in
    /// memory here, not in the developer's dconf (which needs a session bus besides).
    private func keepChooserSettingsInMemory() {
        setenv("GSETTINGS_BACKEND", "memory", 1)
    }

    /// The file chooser dialog on screen (the native chooser's fallback), if any.
    @MainActor
    private static func fileChooserDialog() -> UnsafeMutablePointer<GtkWidget>? {
        guard let windows = gtk_window_list_toplevels() else { return nil }
        defer { g_list_free(windows) }
        var node: UnsafeMutablePointer<GList>? = windows
        while let current = node {
            let window = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            if g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(window)), gtk_file_chooser_dialog_get_type()) != 0,
                gtk_widget_get_visible(window) != 0
            {
                return window
            }
            node = current.pointee.next
        }
        return nil
    }
}
