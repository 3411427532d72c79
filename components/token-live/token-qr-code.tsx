import QRCode from "qrcode";

/**
 * The token as a QR code for the fingerprint scanner device, drawn as one SVG path. `QRCode.create`
 * is synchronous, so the same markup renders on the server and in the browser.
 */
export function TokenQrCode({ value, size = 176 }: { value: string; size?: number }) {
  const { modules } = QRCode.create(value, { errorCorrectionLevel: "M" });
  const quietZone = 2;
  const cells = modules.size + quietZone * 2;
  let path = "";
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) path += `M${column + quietZone} ${row + quietZone}h1v1h-1z`;
    }
  }
  return (
    <svg
      role="img"
      aria-label={`QR code of token ${value}`}
      viewBox={`0 0 ${cells} ${cells}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="rounded-control border border-line bg-white"
      data-testid="token-qr"
    >
      <rect width={cells} height={cells} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
