// A venue check-in campaign's QR code as a file: ?id=N&format=svg|png.
import type { Route } from "./+types/checkinqrcode.download";
import { qrDownload } from "./venue-qr.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return qrDownload(request, context, "CHECKIN");
}
