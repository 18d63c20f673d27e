// /postregistration: create a campaign of type POSTREGISTRATION, or change it with ?id=N until anything has been sent (the form and its
// rules are shared by every type: campaign-form.tsx and campaign-editor.server.ts).
import { useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/postregistration";
import { CampaignForm } from "~/components/campaign-form";
import { campaignEditorAction, campaignEditorLoader } from "./campaign-editor.server";

export const handle = { titleKey: "campaigns.types.POSTREGISTRATION.createTitle", descriptionKey: "campaigns.types.POSTREGISTRATION.lead", permission: "campaigns:manage" };

export const loader = (args: Route.LoaderArgs) => campaignEditorLoader(args, "POSTREGISTRATION");
export const action = (args: Route.ActionArgs) => campaignEditorAction(args, "POSTREGISTRATION");

export default function CampaignPage() {
  return <CampaignForm data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
