import Foundation
import PaywallCLI

/// The pages `paywall bench` measures with, written to a temporary folder.
enum BenchFixtures {
    static let fileCount = 100
    static let fileSize = 50_000  // 100 x 50 kB = 5 MB
    /// What the first-frame measurements look for: a square of `FirstFrameWatch.markerColor`
    /// over the page's top-left corner.
    static let marker =
        "<div style=\"position:fixed;left:0;top:0;width:24px;height:24px;background:#12ab34;"
        + "z-index:2147483647\"></div>"

    /// A copy of `template` (its first `<body>` followed by the marker) at `root`.
    static func writeMarked(_ template: URL, to root: URL) throws {
        try FileManager.default.copyItem(at: template, to: root)
        let index = root.appendingPathComponent("index.html")
        let html = try String(contentsOf: index, encoding: .utf8)
        guard let body = html.range(of: "<body>") else { throw BenchError("\(index.path) has no <body>") }
        try html.replacingCharacters(in: body, with: "<body>" + marker).write(to: index, atomically: true, encoding: .utf8)
    }

    /// A bundle of 100 files (5 MB) and a page with the measuring functions:
    /// `benchBridge(n)` and `benchRaw(n)` time round trips, `benchFetch()` fetches every file.
    static func write(to root: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        for index in 0..<fileCount {
            let bytes = (0..<fileSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: root.appendingPathComponent("data/\(index).bin"))
        }
        let page = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>bench</title></head><body><p>bench</p>
            <script>
            // Round trips are timed in bulk (n in a row, then the mean): the page's clock is too
            // coarse to time one.
            window.benchBridge = async n => {
              const t0 = performance.now();
              for (let i = 0; i < n; i++) {
                await new Promise(done => {
                  const off = Paywall.on("callback_result", e => { if (e.request_id === "b" + i) { off(); done(); } });
                  Paywall.send("request_callback", { request_id: "b" + i, name: "echo", behavior: "blocking" });
                });
              }
              return (performance.now() - t0) / n;
            };
            window.benchRaw = async n => {
              const t0 = performance.now();
              for (let i = 0; i < n; i++) {
                await new Promise(done => { window.__rawEchoReply = done; window.webkit.messageHandlers.rawEcho.postMessage("x"); });
              }
              return (performance.now() - t0) / n;
            };
            // XMLHttpRequest, which both paywall: and file: pages may use for their own files.
            const load = url => new Promise((done, fail) => {
              const request = new XMLHttpRequest();
              request.open("GET", url);
              request.responseType = "arraybuffer";
              request.onload = () => request.response && request.response.byteLength === \(fileSize) ? done() : fail(url);
              request.onerror = () => fail(url);
              request.send();
            });
            window.benchFetch = async () => {
              const t0 = performance.now();
              await Promise.all(Array.from({ length: \(fileCount) }, (_, i) => load("data/" + i + ".bin?" + Math.random())));
              return performance.now() - t0;
            };
            </script></body></html>
            """
        try page.write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
    }
}
