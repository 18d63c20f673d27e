/** The app version this browser bundle was built for (v2.8.2). The server sends its own in X-App-Version. */
export const APP_VERSION_CLIENT = "v2.8.2";
