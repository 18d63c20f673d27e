// Lengths the support chat accepts, shared by the server and the pages' forms.
export const SUPPORT_MESSAGE_MAX = 5000;
export const SAVED_REPLY_TITLE_MAX = 80;
export const SAVED_REPLY_BODY_MAX = 5000;
