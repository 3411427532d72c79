/**
 * How every end-to-end run launches Chromium from Debian (never a downloaded browser): the flags
 * this machine needs, in one place for both Playwright configurations.
 *
 * The browser is Debian's `chromium-headless-shell`: the same Chromium build as the `chromium`
 * package, in the headless mode Playwright itself uses by default. The full browser's headless mode
 * spent 40 % more CPU on the same specs (ADR 0040), and on two cores that CPU is the suite's
 * length. `CHROMIUM_PATH=/usr/bin/chromium` runs the full browser instead.
 */
export const DEBIAN_HEADLESS_SHELL = { path: "/usr/bin/chromium-headless-shell", debianPackage: "chromium-headless-shell" };

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? DEBIAN_HEADLESS_SHELL.path,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
