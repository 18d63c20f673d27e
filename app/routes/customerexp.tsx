// /customerexp: create a campaign of type CUSTOMEREXP, or change it with ?id=N until anything has been sent (the form and its
// rules are shared by every type: campaign-form.tsx and campaign-editor.server.ts).
import { useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/customerexp";
import { CampaignForm } from "~/components/campaign-form";
import { campaignEditorAction, campaignEditorLoader } from "./campaign-editor.server";

export const handle = { titleKey: "campaigns.types.CUSTOMEREXP.createTitle", descriptionKey: "campaigns.types.CUSTOMEREXP.lead", permission: "campaigns:manage" };

export const loader = (args: Route.LoaderArgs) => campaignEditorLoader(args, "CUSTOMEREXP");
export const action = (args: Route.ActionArgs) => campaignEditorAction(args, "CUSTOMEREXP");

export default function CampaignPage() {
  return <CampaignForm data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
