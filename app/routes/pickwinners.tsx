// /pickwinners: create a campaign of type PICKWINNERS, or change it with ?id=N until anything has been sent (the form and its
// rules are shared by every type: campaign-form.tsx and campaign-editor.server.ts).
import { useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/pickwinners";
import { CampaignForm } from "~/components/campaign-form";
import { campaignEditorAction, campaignEditorLoader } from "./campaign-editor.server";

export const handle = { titleKey: "campaigns.types.PICKWINNERS.createTitle", descriptionKey: "campaigns.types.PICKWINNERS.lead", permission: "campaigns:manage" };

export const loader = (args: Route.LoaderArgs) => campaignEditorLoader(args, "PICKWINNERS");
export const action = (args: Route.ActionArgs) => campaignEditorAction(args, "PICKWINNERS");

export default function CampaignPage() {
  return <CampaignForm data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
