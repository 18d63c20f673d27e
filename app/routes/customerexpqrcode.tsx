// The printable QR code of a customer experience survey (?id=N, ?size=card for the table card); see venue-qr.shared.tsx.
import type { Route } from "./+types/customerexpqrcode";
import { QrPage } from "./venue-qr.shared";
import { qrPageLoader } from "./venue-qr.server";

export const handle = { titleKey: "venue.meta.surveyQrTitle", descriptionKey: "venue.meta.surveyQrDescription", permission: "campaigns:manage" } as const;

export function loader({ request, context }: Route.LoaderArgs) {
  return qrPageLoader(request, context, "CUSTOMEREXP");
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <QrPage d={loaderData} />;
}
