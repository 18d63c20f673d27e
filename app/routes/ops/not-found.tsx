// Unknown paths under /ops: the console's 404 (inside its shell for a signed-in operator).
import { data } from "react-router";
import { NotFoundContent } from "~/components/error-page";

export const handle = { titleKey: "notFound.title" };

export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export default function OpsNotFound() {
  return <NotFoundContent />;
}
