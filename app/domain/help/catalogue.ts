// The help centre's guides and videos: which guides exist and in what order, the screens each one points to,
// and the short screen recordings of the getting-started tasks with their captions in both languages. The
// guides' words are Markdown files in content/help/<locale>/<slug>.md (one per guide and locale, same slugs);
// this module holds what does not depend on the language. Pure: shared by the pages, the tests and the script
// that records the videos (scripts/help-videos.ts), so the captions and the transcript under each video are the
// same text.

export const GUIDE_SLUGS = ["getstarted", "joining-and-leaving", "group-messages", "campaigns", "billing", "team", "api-keys"] as const;
export type GuideSlug = (typeof GUIDE_SLUGS)[number];

/** The guide whose opening records the quick start as seen (the home page's quick-start panel then hides). */
export const GET_STARTED_SLUG: GuideSlug = "getstarted";

/**
 * Screens a guide sends people to after reading it, drawn only once the screen exists in this build (some are
 * built separately from the help centre): checked through the signed-in shell's list of linked screens.
 */
export const GUIDE_SCREENS: Partial<Record<GuideSlug, readonly GuideScreen[]>> = {
  getstarted: ["/joinus", "/invitemember", "/newgroupmessage", "/newcampaign"],
  "joining-and-leaving": ["/joinus", "/mycommunity"],
  "group-messages": ["/newgroupmessage", "/groups"],
  campaigns: ["/newcampaign", "/campaigns"],
  billing: ["/subscription", "/paymenthistory", "/referral"],
  team: ["/manageteam"],
  "api-keys": ["/manageintegrations/apikeys"],
};

/** The screens guides may link to; each has a label help.screens.<path without its slash>. */
export const GUIDE_SCREEN_PATHS = [
  "/joinus",
  "/invitemember",
  "/newgroupmessage",
  "/newcampaign",
  "/mycommunity",
  "/groups",
  "/campaigns",
  "/subscription",
  "/paymenthistory",
  "/referral",
  "/manageteam",
  "/manageintegrations/apikeys",
] as const;
export type GuideScreen = (typeof GUIDE_SCREEN_PATHS)[number];

/** The longest search the help centre reads (longer input is cut). */
export const SEARCH_QUERY_MAX = 100;

export type HelpLocale = "en-GB" | "fr";
export const HELP_LOCALES: readonly HelpLocale[] = ["en-GB", "fr"];

export interface HelpVideo {
  id: string;
  /** The guide that shows it (where a `{video:<id>}` line places it). */
  guide: GuideSlug;
  /** The quick-start step it shows (1 to 4), for the link from the home page. */
  step: number;
  /** One caption per recorded step, in order; the recording script times each one. */
  captions: Record<HelpLocale, readonly string[]>;
}

export const HELP_VIDEOS: readonly HelpVideo[] = [
  {
    id: "join-code",
    guide: "getstarted",
    step: 1,
    captions: {
      "en-GB": [
        "Your home screen shows your number and your join keyword.",
        "Open More, then Join us.",
        "The poster shows your number, your keyword and a QR code.",
        "Print it and put it where customers will see it.",
      ],
      fr: [
        "Votre accueil affiche votre numéro et votre mot-clé d’inscription.",
        "Ouvrez Plus, puis Nous rejoindre.",
        "L’affiche montre votre numéro, votre mot-clé et un QR code.",
        "Imprimez-la et placez-la là où vos clients la verront.",
      ],
    },
  },
  {
    id: "invite-member",
    guide: "getstarted",
    step: 2,
    captions: {
      "en-GB": [
        "Go to Members, then Invite a member.",
        "Type their name and UK mobile number.",
        "Send the invitation: they join when they reply YES.",
        "They show as pending until they confirm.",
      ],
      fr: [
        "Allez dans Membres, puis Inviter un membre.",
        "Saisissez son nom et son numéro de mobile britannique.",
        "Envoyez l’invitation : la personne est inscrite quand elle répond YES.",
        "Elle reste en attente jusqu’à sa confirmation.",
      ],
    },
  },
  {
    id: "group-message",
    guide: "getstarted",
    step: 3,
    captions: {
      "en-GB": [
        "Choose Send a group message.",
        "Write your text: the counter shows the texts and credits it takes.",
        "Schedule: send now, or choose a time.",
        "Preview it as a member will see it, then send.",
        "It waits as sending soon: you can still change or delete it.",
      ],
      fr: [
        "Choisissez Envoyer un message de groupe.",
        "Rédigez votre texte : le compteur indique les SMS et les crédits nécessaires.",
        "Planifiez : envoi immédiat, ou à l’heure choisie.",
        "Vérifiez l’aperçu tel qu’un membre le verra, puis envoyez.",
        "Il attend avec le statut bientôt envoyé : vous pouvez encore le modifier ou le supprimer.",
      ],
    },
  },
  {
    id: "quick-poll",
    guide: "getstarted",
    step: 4,
    captions: {
      "en-GB": [
        "Open Campaigns and start a new campaign.",
        "Choose Quick poll.",
        "Write the question and 2 to 9 options.",
        "Choose the group and save: members reply with a number.",
        "The totals appear on the campaign's page as votes arrive.",
      ],
      fr: [
        "Ouvrez Campagnes et créez une nouvelle campagne.",
        "Choisissez Sondage express.",
        "Écrivez la question et 2 à 9 options.",
        "Choisissez le groupe et enregistrez : les membres répondent par un numéro.",
        "Les totaux s’affichent sur la page de la campagne à mesure que les votes arrivent.",
      ],
    },
  },
];

/** Where a video and its captions are served from (files in public/help/videos/). */
export function videoFiles(id: string): { webm: string; captions: Record<HelpLocale, string> } {
  return {
    webm: `/help/videos/${id}.webm`,
    captions: { "en-GB": `/help/videos/${id}.en-GB.vtt`, fr: `/help/videos/${id}.fr.vtt` },
  };
}

export function isGuideSlug(value: unknown): value is GuideSlug {
  return typeof value === "string" && (GUIDE_SLUGS as readonly string[]).includes(value);
}

export function helpLocale(lng: string | undefined): HelpLocale {
  return lng === "fr" ? "fr" : "en-GB";
}
