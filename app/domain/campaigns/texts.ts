// The few sentences the engine itself writes to members (how to answer a poll, an invitation's waitlist), in the
// business's language. Everything else a campaign sends is the owner's own text.

type Phrases = {
  /** "Reply 1 for Pizza, 2 for Pasta". */
  options: (labels: string[]) => string;
  /** The one help text after an answer that fits no option. */
  help: (numbers: string) => string;
  or: string;
  rsvp: (accept: string, decline: string, party: boolean) => string;
  waitlist: string;
  placeOpened: (name: string) => string;
  reminder: (name: string) => string;
  scoreHelp: string;
  /** The keyword again from someone part-way through a survey: nothing restarts. */
  alreadyInSurvey: string;
};

const PHRASES: Record<string, Phrases> = {
  "en-GB": {
    options: (labels) => `Reply ${labels.map((l, i) => `${i + 1} for ${l}`).join(", ")}`,
    help: (numbers) => `Sorry, we did not catch that. Please reply with ${numbers}.`,
    or: "or",
    rsvp: (accept, decline, party) => `Reply ${accept} to accept or ${decline} to decline${party ? ` (${accept} 3 for three of you)` : ""}`,
    waitlist: "Thank you. We are full at the moment, so you are on the waiting list: we will text you if a place opens.",
    placeOpened: (name) => `Good news: a place has opened for ${name} and it is yours.`,
    reminder: (name) => `Reminder: ${name} is tomorrow. We look forward to seeing you.`,
    scoreHelp: "Please reply with a score from 0 to 10.",
    alreadyInSurvey: "You are already taking part in this survey: just reply to our last question.",
  },
  fr: {
    options: (labels) => `Répondez ${labels.map((l, i) => `${i + 1} pour ${l}`).join(", ")}`,
    help: (numbers) => `Désolé, nous n'avons pas compris. Merci de répondre ${numbers}.`,
    or: "ou",
    rsvp: (accept, decline, party) => `Répondez ${accept} pour accepter ou ${decline} pour refuser${party ? ` (${accept} 3 si vous venez à trois)` : ""}`,
    waitlist: "Merci. C'est complet pour le moment : vous êtes sur la liste d'attente et nous vous écrirons si une place se libère.",
    placeOpened: (name) => `Bonne nouvelle : une place s'est libérée pour ${name} et elle est à vous.`,
    reminder: (name) => `Rappel : ${name}, c'est demain. À bientôt !`,
    scoreHelp: "Merci de répondre par une note de 0 à 10.",
    alreadyInSurvey: "Vous participez déjà à cette enquête : répondez simplement à notre dernière question.",
  },
};

export function phrases(locale: string): Phrases {
  return PHRASES[locale] ?? PHRASES["en-GB"];
}

/** "1, 2 or 3" in the business's language. */
export function numberList(count: number, locale: string): string {
  const n = Array.from({ length: count }, (_, i) => String(i + 1));
  return n.length <= 1 ? n.join("") : `${n.slice(0, -1).join(", ")} ${phrases(locale).or} ${n[n.length - 1]}`;
}

/** A reply as the engine compares it: accents and surrounding punctuation gone, spaces collapsed, upper case. */
export function normaliseAnswer(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\p{Cf}]/gu, "")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .replace(/\s+/g, " ")
    .toUpperCase();
}
