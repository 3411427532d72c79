/** @type {import('next').NextConfig} */
const nextConfig = {
  // Parallel builds in one checkout (e.g. two e2e runs) each need their own output folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // PGlite ships its own WASM and data files; bundling it breaks their lookup.
  serverExternalPackages: ["@electric-sql/pglite", "pino"],
  poweredByHeader: false,
  // `npm test` type-checks the whole tree after the build (tsc over tsconfig.json, which takes in the
  // route types the build writes): the build's own check would be the same program run twice.
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIPS_TYPE_CHECK === "1" },
  async headers() {
    // On every answer, static files included. The CSP (with its per-request nonce) and HSTS come
    // from proxy.ts (lib/security-headers.ts); e2e/security-headers.spec.ts checks them all.
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=()" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
