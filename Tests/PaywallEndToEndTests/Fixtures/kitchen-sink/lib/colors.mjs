// Imported by app.mjs: proves ES module imports resolve inside the bundle.
export const moduleColor = "rgb(0, 200, 0)";
