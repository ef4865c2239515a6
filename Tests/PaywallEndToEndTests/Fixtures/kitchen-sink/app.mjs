// Paints each check's cell and reports everything to the host as one `custom` message.
import { moduleColor } from "./lib/colors.mjs";

const report = { module: true };
document.getElementById("module").style.background = moduleColor;

const data = await (await fetch("data.json")).json();
document.getElementById("fetch").style.background = data.color;
report.fetch = data.color;

await document.fonts.load('24px "FixtureFont"');
report.font = document.fonts.check('24px "FixtureFont"');
document.getElementById("font").style.background = report.font ? "rgb(255, 255, 0)" : "rgb(255, 0, 0)";

window.Paywall.ready();

// Ways out of the bundle that must all fail.
const attacks = [
  "../../etc/passwd", "/../../etc/passwd", "%2e%2e/%2e%2e/etc/passwd", "..%2f..%2fetc%2fpasswd",
  "/%2Fetc%2Fpasswd", "..\\..\\etc\\passwd", "%5c..%5cetc%5cpasswd", "index.html%00.png",
  "file:///etc/passwd", "paywall://other/etc/passwd", "outside-link/passwd",
];
report.attacks = {};
for (const path of attacks) {
  try {
    const response = await fetch(path);
    const text = await response.text();
    report.attacks[path] = response.ok ? (text.includes("root:") ? "LEAKED" : "ok:" + response.status) : response.status;
  } catch (error) {
    report.attacks[path] = "error";
  }
}
window.Paywall.custom(JSON.stringify(report));
document.title = "reported";
