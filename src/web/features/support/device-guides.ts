// Setup steps for each device of spec §3's list (src/shared/options.ts DEVICES). The apps to
// install come from the operator's downloads list (GET /api/downloads), so these steps name
// no app: they say where to find it and how to sign in with the line details we send.
import { DEVICES, type DeviceValue } from "@/shared/options";

export interface DeviceGuide {
  device: DeviceValue;
  label: string;
  /** one line under the device's name */
  intro: string;
  steps: string[];
  tips: string[];
}

const SIGN_IN =
  "Enter the username, password and server address from the message we sent you, exactly as written: they are case-sensitive.";
const LOAD = "Wait a minute while your channels load the first time, then pick a channel and enjoy.";

const GUIDES: Record<DeviceValue, Omit<DeviceGuide, "device" | "label">> = {
  android: {
    intro: "Phones and tablets with the Google Play Store.",
    steps: [
      "Open the Google Play Store.",
      "Search for one of the apps under 'Apps for this device' and tap Install.",
      "Open the app and choose to sign in with Xtream Codes (some apps call it 'Login with username' or 'Xtream Codes API').",
      SIGN_IN,
      LOAD,
    ],
    tips: [
      "Streaming uses a lot of data: use Wi-Fi rather than mobile data where you can.",
      "Turn on auto-rotate and watch in landscape for the biggest picture.",
    ],
  },
  ios: {
    intro: "iPhones and iPads, through Apple's App Store.",
    steps: [
      "Open the App Store.",
      "Install one of the apps under 'Apps for this device'. If none is listed, ask us on WhatsApp which player we recommend for iPhone and iPad.",
      "Open the app and add a new playlist or user, choosing Xtream Codes as the type.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["Use AirPlay to send the picture to an Apple TV or AirPlay-ready TV."],
  },
  "apple-tv": {
    intro: "Apple TV HD and 4K, through the Apple TV App Store.",
    steps: [
      "On the Apple TV home screen, open the App Store.",
      "Install one of the apps under 'Apps for this device'. If none is listed, ask us on WhatsApp which player we recommend for Apple TV.",
      "Open the app and add a new playlist or user, choosing Xtream Codes as the type.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["Typing with the remote is slow: the Apple TV Remote in your iPhone's Control Centre lets you type with the phone's keyboard."],
  },
  "smart-tv-android": {
    intro: "Smart TVs running Android TV or Google TV (for example many Sony, TCL, Philips and Hisense models).",
    steps: [
      "Connect the TV to the internet (Settings > Network).",
      "Open the Google Play Store on the TV.",
      "Search for one of the apps under 'Apps for this device' and install it.",
      "Open the app and choose to sign in with Xtream Codes.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["A network cable from the router to the TV is the single biggest fix for buffering."],
  },
  "smart-tv-samsung": {
    intro: "Samsung, LG and Hisense Smart TVs that don't run Android. We link your channels to the TV for you.",
    steps: [
      "Connect the TV to the internet (Settings > Network).",
      "Open the TV's own app store: Samsung Apps on Samsung, LG Content Store on LG, or the VIDAA store on Hisense.",
      "Search for the app under 'Apps for this device' and install it.",
      "Open the app. It shows the TV's MAC address: six pairs of letters and numbers, like 1a:2b:3c:4d:5e:6f.",
      "Take a photo of that screen and send it to us on WhatsApp.",
      "We link your channels to the TV and tell you when it's done. Then restart the app and your channels appear.",
    ],
    tips: [
      "Some Smart TV players charge their own once-off activation fee after a free period. That fee goes to the app maker, not to us.",
      "Older TVs may not run the app well. A Fire Stick or Android TV box is then the better choice.",
    ],
  },
  firestick: {
    intro: "Amazon Fire TV Stick, Lite and 4K. The players aren't in Amazon's store, so you install them with the free Downloader app.",
    steps: [
      "On the Fire Stick home screen, go to Find > Search and install 'Downloader'.",
      "Go to Settings > My Fire TV > Developer options > Install unknown apps, and turn it on for Downloader. (No Developer options? Open Settings > My Fire TV > About and press OK on the device name seven times.)",
      "Ask us on WhatsApp for the download code of the app under 'Apps for this device', then type it into Downloader.",
      "Install the app and open it.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["Plug the Fire Stick into its own power adapter, not the TV's USB port: it runs faster and crashes less."],
  },
  "android-box": {
    intro: "Android TV boxes with the Google Play Store (Google certified).",
    steps: [
      "Open the Google Play Store on the box.",
      "Search for one of the apps under 'Apps for this device' and install it.",
      "Open the app and choose to sign in with Xtream Codes.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["Connect the box to the router with a network cable if you can: it's the single biggest fix for buffering."],
  },
  "non-google-certified": {
    intro: "Android boxes and TVs without the Google Play Store. They work like a Fire Stick: you install the app yourself.",
    steps: [
      "Install the free Downloader app from the box's own app store, or open the box's web browser.",
      "In the box's settings, allow installing apps from unknown sources for Downloader (or for the browser).",
      "Ask us on WhatsApp for the download link or code of the app under 'Apps for this device', then open it in Downloader or the browser.",
      "Install the app and open it.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["If the box is slow, restart it once a week: many budget boxes run better after a fresh start."],
  },
  pc: {
    intro: "Windows and Mac computers.",
    steps: [
      "Install one of the apps under 'Apps for this device' for your computer. If none is listed, ask us on WhatsApp which player we recommend for Windows or Mac.",
      "Open the player and add a new playlist or user, choosing Xtream Codes as the type.",
      SIGN_IN,
      LOAD,
    ],
    tips: ["Close other downloads and streaming tabs while you watch, and use a network cable for a steadier picture."],
  },
};

/** Every device of the option list, in the spec's order, with its guide. */
export const DEVICE_GUIDES: readonly DeviceGuide[] = DEVICES.map((d) => ({ device: d.value, label: d.label, ...GUIDES[d.value] }));

export function findGuide(device: string | null | undefined): DeviceGuide | undefined {
  return DEVICE_GUIDES.find((g) => g.device === device);
}
