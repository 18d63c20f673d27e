// The printable QR code of a venue check-in campaign (?id=N, ?size=card for the table card); see venue-qr.shared.tsx.
import type { Route } from "./+types/checkinqrcode";
import { QrPage } from "./venue-qr.shared";
import { qrPageLoader } from "./venue-qr.server";

export const handle = { titleKey: "venue.meta.checkinQrTitle", descriptionKey: "venue.meta.checkinQrDescription", permission: "campaigns:manage" } as const;

export function loader({ request, context }: Route.LoaderArgs) {
  return qrPageLoader(request, context, "CHECKIN");
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <QrPage d={loaderData} />;
}
