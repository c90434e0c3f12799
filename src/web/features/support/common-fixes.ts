// The technical support checklists: the fixes that clear most problems, in the order worth
// trying them, most pointing at the help centre's search for the longer guide.

export interface CommonFix {
  id: string;
  title: string;
  /** what the customer sees */
  symptom: string;
  steps: string[];
  /** help centre search for the longer guide, where the help centre has one */
  search?: string;
}

export const COMMON_FIXES: readonly CommonFix[] = [
  {
    id: "buffering",
    title: "Buffering or freezing",
    symptom: "The picture stops to load, freezes, or keeps dropping in quality.",
    steps: [
      "Check the status page: if the streaming service shows a problem, it's on our side and we're already on it.",
      "Run the stream test on the device that buffers. HD needs about 15-25 Mbps, Full HD 25-35 Mbps and 4K 35 Mbps or more.",
      "Switch the router and the device off for 30 seconds, then on again.",
      "Use a network cable, or connect to your router's 5 GHz Wi-Fi and move closer to it.",
      "Pause downloads, updates and other streams on the same connection, and turn off any VPN.",
      "Watch on one device at a time: a line plays one stream at a time.",
      "Clear the player app's cache in its settings, then sign in again if it asks.",
    ],
    search: "buffering",
  },
  {
    id: "sign-in",
    title: "The app won't sign in",
    symptom: "The app says the login is wrong, the account has expired, or it can't connect to the server.",
    steps: [
      "Type the username, password and server address exactly as in the message we sent you: they are case-sensitive, and the server address includes http:// and any port number.",
      "Check for extra spaces at the end, which phones sometimes add when you paste.",
      "Check that your subscription is still active in the client portal.",
      "Make sure the date and time on your device are set automatically.",
      "Sign out of the line on any other device, then try again.",
      "Update the app from the downloads page, or delete the profile in the app and add it again.",
    ],
    search: "sign in",
  },
  {
    id: "no-sound",
    title: "No sound, or sound out of sync",
    symptom: "The picture plays but there is no sound, or voices don't match lips.",
    steps: [
      "Check the volume and mute on both the TV and the device, and on any soundbar.",
      "Try another channel: if only one channel is affected, tell us which one.",
      "In the player's settings, choose another audio track, or switch between hardware and software decoding.",
      "On a soundbar or home theatre, set the device's audio output to PCM or stereo.",
      "Restart the app, then the device.",
    ],
  },
  {
    id: "channel",
    title: "A channel won't play",
    symptom: "One channel shows an error, a black screen or 'no signal' while others work.",
    steps: [
      "Try two or three other channels to see whether it's one channel or all of them.",
      "Some channels only broadcast during events: check the TV guide for what's on.",
      "Reload the channel list in the app (often called Update playlist or Refresh).",
      "Check the status page for problems on our side.",
      "Still not playing? Send us the channel name and the time you tried it.",
    ],
    search: "channel",
  },
  {
    id: "tv-guide",
    title: "The TV guide is empty or wrong",
    symptom: "There's no programme information, or shows appear at the wrong times.",
    steps: [
      "Give the guide a few minutes to load after you first sign in.",
      "In the app's settings, update or reload the EPG (the TV guide).",
      "Set the time zone on your device to Johannesburg (SAST), with automatic date and time.",
      "Restart the app.",
    ],
  },
  {
    id: "app-crashes",
    title: "The app crashes or won't open",
    symptom: "The player closes by itself, hangs on its logo, or won't start.",
    steps: [
      "Restart the device, not only the app.",
      "Make sure the app is the latest version from our downloads page.",
      "Free up storage: the device needs some free space for the app to run.",
      "Clear the app's cache (on Android: Settings > Apps > the player > Storage > Clear cache).",
      "Uninstall the app, install it again and sign in with your line details.",
    ],
    search: "app",
  },
  {
    id: "load-shedding",
    title: "Nothing works after load-shedding",
    symptom: "The power is back but channels won't load, or the connection keeps dropping.",
    steps: [
      "Give the fibre or LTE router a few minutes to get a stable connection after the power returns.",
      "Switch the router off and on again, then restart your TV box or device.",
      "Check your internet works on another device before changing anything in the app.",
      "A small UPS for the router keeps you streaming through the next round of load-shedding.",
    ],
    search: "load-shedding",
  },
];
