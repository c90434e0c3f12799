// The demo content a new shop starts with. Everything here is the operator's to edit in the
// admin; seed.ts writes it once, on an empty database, and never again.
// Prices are spec §9's order-form pricing. Facts about the business that we cannot know
// (bank account, legal name, address, registration) are placeholders or left empty, so no
// page ever shows an invented fact. Texts never spell out the business's name: the pages put
// company_name from branding in its place, so a rebranded shop reads right. What is only an
// example (reviews, the rating line, the contact details, the bank details) is listed in
// DEMO_CONTENT, which seed.ts records so the dashboard can mark it until the owner replaces it.
import { SETTING_PLACEHOLDER } from "@/shared/constants";
import type * as schema from "./schema";

type Row<T extends { $inferInsert: unknown }> = T["$inferInsert"];

/** Brand images shipped in public/ (served at the site root). */
const LOGO = "/images/logo.svg";
/** The logo the demo shop ships with, and the images that show it (the launch checklist asks for the shop's own). */
export const DEFAULT_LOGO_URL = LOGO;
export const LOGO_IMAGE_KEYS = ["hero_logo", "about_company_logo", "footer_logo"];

const commonFeatures = ["Live local & international channels", "Movies and series on demand", "Sport, news and kids' channels"];

export const seedPackages: Row<typeof schema.packages>[] = [
  {
    name: "Month to Month",
    price: 650,
    duration: "1 Month",
    duration_months: 1,
    features: [...commonFeatures, "HD and 4K where the channel offers it", "Setup help on WhatsApp", "No contract: renew when you want"],
    description: "Pay one month at a time. Ideal if you want to see how it works in your home before committing.",
    sort_order: 1,
  },
  {
    name: "3 Months",
    price: 1650,
    duration: "3 Months",
    duration_months: 3,
    features: [...commonFeatures, "HD and 4K where the channel offers it", "Setup help on WhatsApp", "Reminder before your term ends"],
    description: "Our most popular plan: a full season of sport and series at a lower monthly cost than month to month.",
    is_featured: true,
    sort_order: 2,
  },
  {
    name: "6 Months",
    price: 3150,
    duration: "6 Months",
    duration_months: 6,
    features: [...commonFeatures, "HD and 4K where the channel offers it", "Priority WhatsApp support", "Reminder before your term ends"],
    description: "Half a year of streaming with one payment, and priority help when you need it.",
    sort_order: 3,
  },
  {
    name: "12 Months",
    price: 5999,
    duration: "12 Months",
    duration_months: 12,
    features: [...commonFeatures, "HD and 4K where the channel offers it", "Priority WhatsApp support", "Free help moving to a new device"],
    description: "A full year, paid once. The best value for households that watch every day.",
    sort_order: 4,
  },
  {
    name: "24 Months",
    price: 10999,
    duration: "24 Months",
    duration_months: 24,
    features: [...commonFeatures, "HD and 4K where the channel offers it", "Priority WhatsApp support", "Free help moving to a new device"],
    description: "Two years of streaming at our lowest monthly cost. Set it up once and forget about renewals.",
    sort_order: 5,
  },
];

/** Matches the '3 Months' package by spec §4: same name and original_price equal to its price. */
export const seedSpecials: Row<typeof schema.pricingSpecials>[] = [
  {
    package_name: "3 Months",
    original_price: 1650,
    special_price: 1450,
    title: "Save R200 on 3 Months",
    description: "Our most popular plan is on special: three months of premium streaming, activated the same day you pay.",
  },
];

export const seedBanners: Row<typeof schema.banners>[] = [
  {
    title: "Special: save R200 on 3 Months",
    content: "Three months of live TV, sport, movies and series for less. Order now and we'll have you streaming today.",
    banner_type: "special",
    sort_order: 1,
  },
  {
    title: "Try it free for 24 hours",
    content: "No card needed. We set up your trial on WhatsApp in minutes. Free trials are not available on sport event days.",
    banner_type: "info",
    sort_order: 2,
  },
];

const PLACEHOLDER = SETTING_PLACEHOLDER;

export const seedSettings: Row<typeof schema.siteSettings>[] = [
  { key: "support_hours", value: "9am-8pm, 7 days a week", description: "When people answer on WhatsApp and e-mail. Shown on the site." },
  { key: "eft_bank_name", value: PLACEHOLDER, description: "PLACEHOLDER: the bank of the account customers pay by EFT, e.g. FNB." },
  {
    key: "eft_account_name",
    value: PLACEHOLDER,
    description: "PLACEHOLDER: the account holder's name exactly as the bank has it.",
  },
  {
    key: "eft_account_number",
    value: PLACEHOLDER,
    description: "PLACEHOLDER: the account number customers pay into. Check it twice: customers copy it as shown.",
  },
  { key: "eft_branch_code", value: PLACEHOLDER, description: "PLACEHOLDER: the bank's universal branch code, e.g. 250655." },
  { key: "eft_account_type", value: PLACEHOLDER, description: "PLACEHOLDER: Cheque/Current or Savings." },
  {
    key: "eft_reference_prefix",
    value: "SD",
    description: "Start of every EFT payment reference (the order number follows), so payments are easy to match.",
  },
  { key: "free_trial_hours", value: "24", description: "How long a free trial lasts, in hours (1-168)." },
  {
    key: "reminder_days",
    value: "7,3,1,0",
    description:
      "Days before a subscription or trial ends that a reminder goes, with a renew link (0: the day it ends). Up to 6, from 0 to 60.",
  },
  {
    key: "grace_days",
    value: "3",
    description: "Days a client keeps their service after a paid term ends, to renew without a break (0-30).",
  },
  {
    key: "free_trial_rules",
    value:
      "One free trial per person: one per WhatsApp number and e-mail address. The trial lasts 24 hours and needs no card. " +
      "Free trials are not available on sport event days. We send your trial login details on WhatsApp or by e-mail.",
    description: "The trial rules shown beside the free-trial button and in the order form.",
  },
  {
    key: "prices_include_vat",
    value: "false",
    description: "'true' if the prices shown include VAT, 'false' if not. Keep it in line with vat_note.",
  },
  {
    key: "vat_note",
    value: "All prices are in South African rand (ZAR). No VAT is added: we are not registered for VAT.",
    description: "Shown with prices. Demo text: replace it with the business's real VAT position before going live.",
  },
  {
    key: "business_legal_name",
    value: "",
    description: "Fill in: the registered legal name of the business (e.g. 'Example Media (Pty) Ltd'). Legal pages show it.",
  },
  {
    key: "business_address",
    value: "",
    description: "Fill in: the physical address where the business accepts legal notices (ECT Act s43). Legal pages show it.",
  },
  {
    key: "registration_number",
    value: "",
    description: "Fill in: the CIPC company registration number, if the business is registered. Leave empty if not.",
  },
  {
    key: "information_officer_name",
    value: "",
    description: "Fill in: the POPIA information officer's name (usually the owner or director). The privacy policy names them.",
  },
  {
    key: "information_officer_email",
    value: "",
    description: "Fill in: the e-mail address for privacy requests to the information officer. The privacy policy shows it.",
  },
];

export const seedHomepageContent: Row<typeof schema.homepageContent>[] = [
  {
    section_name: "hero",
    title: "Live TV, Sport and Movies, Streaming in Minutes",
    description:
      "Local and international channels, the big matches, movies and series on your phone, Smart TV, Fire Stick or TV box. " +
      "Start with a free 24-hour trial: no card, no contract.",
    content: {
      features: [
        "Thousands of live channels",
        "HD and 4K quality",
        "Works on the devices you already own",
        "Local support 9am-8pm, 7 days",
      ],
      cta_primary: "Try Free Now",
      cta_secondary: "Start Streaming Today",
      rating_text: "Rated 5 stars by 5,000+ South African customers",
    },
    sort_order: 1,
  },
  {
    section_name: "about",
    title: "Why South Africans Choose Us",
    description:
      "We're a small South African team that sets you up, answers on WhatsApp and stays with you after you've paid. " +
      "No satellite dish, no installer, no long contract: just your internet connection and an app.",
    content: {
      features: [
        {
          icon: "Shield",
          color: "#38bdf8",
          title: "Privacy & Security",
          description: "Your details stay with us: we use them to set up and support your account, never to sell.",
        },
        {
          icon: "Zap",
          color: "#facc15",
          title: "Lightning Fast Streaming",
          description: "Servers tuned for South African fibre and LTE, so channels open quickly and play smoothly.",
        },
        {
          icon: "Users",
          color: "#34d399",
          title: "Local Expert Support",
          description: "Real people on WhatsApp and e-mail, 9am-8pm, 7 days a week.",
        },
        {
          icon: "Heart",
          color: "#f472b6",
          title: "Complete Family Package",
          description: "Sport, movies, series, news and kids' channels: something for everyone at home.",
        },
      ],
    },
    sort_order: 2,
  },
  {
    section_name: "footer",
    title: "Footer",
    description: "Premium streaming for South African homes: live TV, sport, movies and series on the devices you already own.",
    content: {
      links: [
        { text: "Pricing", id: "pricing" },
        { text: "About Us", id: "about" },
        { text: "Testimonials", id: "testimonials" },
        { text: "Order Now", id: "order" },
      ],
      support_links: [
        { text: "Setup Guide", url: "/setup-guide" },
        { text: "Technical Support", url: "/technical-support" },
        { text: "Downloads", url: "/downloads" },
      ],
      // No disclaimer here: the footer's own says it in the business's name (company_name).
    },
    sort_order: 9,
  },
];

// site_branding has no description column: whatsapp_number and support_email are demo contacts
// that the operator replaces in Admin › Branding before going live (DEMO_CONTENT lists them).
export const seedBranding: Row<typeof schema.siteBranding>[] = [
  { setting_name: "company_name", setting_value: "StreamDesk" },
  { setting_name: "tagline", setting_value: "Premium streaming, set up in minutes" },
  { setting_name: "whatsapp_number", setting_value: "27821234567" },
  { setting_name: "support_email", setting_value: "support@streamdesk.co.za" },
];

export const seedDownloads: Row<typeof schema.downloads>[] = [
  {
    name: "IPTV Smarters Pro",
    description:
      "The easiest player to start with: sign in with the login details we send you and your channels, movies and series " +
      "appear in one place. Works on phones, tablets, TV boxes and Fire Sticks.",
    download_url: "https://play.google.com/store/apps/details?id=com.nst.iptvsmarterstvbox",
    file_type: "APK / Play Store",
    file_size: "About 40 MB",
    version: "5.0",
    device_compatibility: ["android", "android-box", "firestick", "smart-tv-android", "non-google-certified"],
    installation_guide: [
      "1. On your phone, tablet or Android TV, open the Google Play Store.",
      '2. Search for "IPTV Smarters Pro" and tap Install. (Fire Stick: install the Downloader app first and ask us on WhatsApp for the download code.)',
      "3. Open IPTV Smarters Pro and accept the terms.",
      '4. Choose "Login with Xtream Codes API".',
      "5. Type any name for the profile (for example Home), then the username, password and server URL from the message we sent you. Copy them exactly: they are case-sensitive.",
      "6. Tap Add User. The app loads your channels, which takes about a minute the first time.",
      "7. Open Live TV, pick a category and enjoy. If a channel does not play, go back and try another, then send us a WhatsApp.",
    ].join("\n"),
    is_featured: true,
    logo_url: "/images/apps/smarters.svg",
    sort_order: 1,
  },
  {
    name: "TiviMate",
    description:
      "A TV-style programme guide for Android TV boxes, Fire Sticks and Android Smart TVs. Best for watching on the big " +
      "screen with a remote.",
    download_url: "https://play.google.com/store/apps/details?id=ar.tvplayer.tv",
    file_type: "APK / Play Store",
    file_size: "About 25 MB",
    version: "5.1",
    device_compatibility: ["android-box", "firestick", "smart-tv-android", "non-google-certified"],
    installation_guide: [
      "1. On your Android TV box or Smart TV, open the Google Play Store. (Fire Stick: use the Downloader app; ask us on WhatsApp for the code.)",
      '2. Search for "TiviMate IPTV Player" and install it.',
      "3. Open TiviMate and choose Add playlist.",
      "4. Choose Xtream Codes.",
      "5. Enter the server address, username and password from the message we sent you, then press Next.",
      "6. Wait while TiviMate loads the channels and the TV guide, then press Done.",
      "7. Press OK on your remote to open the channel list. Long-press a channel to add it to Favourites.",
    ].join("\n"),
    logo_url: "/images/apps/tivimate.svg",
    sort_order: 2,
  },
  {
    name: "Smart IPTV",
    description:
      "A player for Samsung, LG and Hisense Smart TVs that don't run Android. Install it from your TV's own app store; " +
      "we load your channels onto it for you.",
    download_url: "https://siptv.eu/",
    file_type: "Smart TV app",
    file_size: "About 10 MB",
    version: "1.7",
    device_compatibility: ["smart-tv-samsung", "smart-tv-android"],
    installation_guide: [
      "1. Make sure your TV is connected to the internet (Settings > Network).",
      "2. Open your TV's app store: Samsung Apps on Samsung, LG Content Store on LG, or the VIDAA store on Hisense.",
      '3. Search for "Smart IPTV" and install it.',
      "4. Open Smart IPTV. The screen shows your TV's MAC address (six pairs of letters and numbers, like 1a:2b:3c:4d:5e:6f).",
      "5. Take a photo of that screen and send it to us on WhatsApp.",
      "6. We link your channels to the TV and tell you when it's done, usually within 15 minutes during support hours.",
      "7. Restart the app (or switch the TV off and on) and your channels appear.",
    ].join("\n"),
    logo_url: "/images/apps/smart-iptv.svg",
    sort_order: 3,
  },
];

const REVIEWS: Row<typeof schema.testimonialsManaged>[] = [
  {
    client_name: "Thabo M.",
    location: "Soweto, Gauteng",
    content:
      "I was watching the game on my TV box within ten minutes of paying. When a channel froze on Saturday they " +
      "answered on WhatsApp straight away and sorted it out.",
    rating: 5,
    is_featured: true,
    sort_order: 1,
  },
  {
    client_name: "Lerato K.",
    location: "Pretoria, Gauteng",
    content:
      "The free trial convinced me. The kids have their cartoons, I have my series, and it costs less than what we " +
      "paid for satellite.",
    rating: 5,
    is_featured: true,
    sort_order: 2,
  },
  {
    client_name: "Pieter V.",
    location: "Stellenbosch, Western Cape",
    content: "Set it up on the Samsung TV myself with their guide. Rugby in HD with no dish on the roof. Very happy.",
    rating: 5,
    sort_order: 3,
  },
  {
    client_name: "Ayesha P.",
    location: "Durban, KwaZulu-Natal",
    content:
      "Good picture on our fibre line and friendly support. One evening it buffered during a big match, but they " +
      "helped me switch to a better Wi-Fi setting and it's been fine since.",
    rating: 4,
    sort_order: 4,
  },
  {
    client_name: "Sipho N.",
    location: "Gqeberha, Eastern Cape",
    content: "Paid by EFT, sent the proof on WhatsApp and my line was active within the hour. Renewing for 12 months.",
    rating: 5,
    sort_order: 5,
  },
  {
    client_name: "Carmen D.",
    location: "Bloemfontein, Free State",
    content: "Works on my phone and the lounge TV. The TiviMate guide makes it feel like normal TV, which my parents love.",
    rating: 4,
    sort_order: 6,
  },
];

/** How many days before the shop's first start each review was written: spread over months, as reviews come in. */
export const REVIEW_AGES_DAYS = [9, 26, 47, 71, 108, 143] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The demo reviews, dated over the months before `now` (the first start), published. */
export function seedTestimonials(now: Date): Row<typeof schema.testimonialsManaged>[] {
  return REVIEWS.map((t, i) => {
    const written = new Date(now.getTime() - REVIEW_AGES_DAYS[i % REVIEW_AGES_DAYS.length] * DAY_MS);
    return { ...t, is_approved: true, is_published: true, created_at: written, updated_at: written };
  });
}

export const seedComponents: Row<typeof schema.systemComponents>[] = [
  { key: "streaming", name: "Streaming service", description: "Live channels and on-demand movies and series.", sort_order: 1 },
  { key: "website", name: "Website & portals", description: "This website, the client portal and ordering.", sort_order: 2 },
  { key: "payments", name: "Payments", description: "Card payment links and EFT confirmation.", sort_order: 3 },
  {
    key: "messaging",
    name: "WhatsApp & e-mail",
    description: "Order confirmations, login details and renewal reminders.",
    sort_order: 4,
  },
  { key: "database", name: "Accounts database", description: "Client accounts, orders and subscriptions.", sort_order: 5 },
];

export const seedKbArticles: Row<typeof schema.kbArticles>[] = [
  {
    slug: "getting-started",
    title: "Getting started: from order to first channel",
    category: "Getting Started",
    summary: "What happens after you order, and how to be watching in under 10 minutes.",
    body: `Getting set up takes three steps.

1. Choose and pay
Pick a package on the Pricing page (or start a free 24-hour trial) and tap Pay Now. You pay by card on a secure payment page or, when card payments are off, by EFT with the reference we give you. You can also ask us for EFT details at any time.

2. Get your login details
As soon as your payment or trial is confirmed we send your line details on WhatsApp or by e-mail: a username, a password and a server address. Keep this message: you need it on every device.

3. Install an app and sign in
Open the Downloads page and pick the app for your device:
- Android phone, tablet, TV box or Fire Stick: IPTV Smarters Pro or TiviMate.
- Samsung, LG or Hisense Smart TV: Smart IPTV.
Each app has step-by-step instructions; tap "Send instructions" and we'll send them to your WhatsApp or e-mail.

Before you start
Run the stream test on this site from the device you'll watch on. Around 25 Mbps or more gives you Full HD; 10 Mbps is enough for SD.

Stuck? Send us a WhatsApp with a photo of the screen, 9am-8pm, 7 days a week.`,
    sort_order: 1,
  },
  {
    slug: "free-trial",
    title: "How the free 24-hour trial works",
    category: "Getting Started",
    summary: "Who can get a trial, when, and what happens when it ends.",
    body: `Every new customer can try the service free for 24 hours before paying.

How to start
Tap "Try Free Now", fill in the order form with Free Trial as the duration, and we'll send your trial login on WhatsApp or e-mail. No card is needed.

The rules
- One trial per person: one per WhatsApp number and one per e-mail address.
- Trials are not available on sport event days (big matches and fights), because the servers are at their busiest.
- The trial runs for 24 hours from when we send your login details.

When the trial ends
The line simply stops; nothing is charged. If you liked it, order any package and we move you onto a paid line, usually with the same login details, so you don't have to set up again.`,
    sort_order: 2,
  },
  {
    slug: "fire-stick-and-tv-box",
    title: "Setting up on a Fire Stick or Android TV box",
    category: "Devices",
    summary: "Install a player on an Amazon Fire Stick or Android TV box in about five minutes.",
    body: `Android TV boxes (Google certified)
1. Open the Google Play Store on the box.
2. Search for IPTV Smarters Pro or TiviMate and install it.
3. Open the app and sign in with the username, password and server address we sent you.

Amazon Fire Stick
The Amazon store doesn't carry these players, so you install them with the free Downloader app.
1. On the Fire Stick home screen, go to Find > Search and install "Downloader".
2. Go to Settings > My Fire TV > Developer options > Install unknown apps, and turn it on for Downloader. (If you don't see Developer options: open Settings > My Fire TV > About and press OK on the device name seven times.)
3. Open Downloader and type the download code we send you on WhatsApp.
4. Install the app, open it and sign in with your line details.

Non Google certified boxes
Boxes without the Play Store work the same way as a Fire Stick: install Downloader or open the download link in the box's browser.

Tip: plug the box into the router with a network cable if you can. It's the single biggest fix for buffering.`,
    sort_order: 3,
  },
  {
    slug: "smart-tv-setup",
    title: "Setting up on a Samsung, LG or Hisense Smart TV",
    category: "Devices",
    summary: "Smart TVs that don't run Android use the Smart IPTV app and your TV's MAC address.",
    body: `Android Smart TVs (Sony, TCL, Philips and others with Google TV)
Follow the TV box guide: install IPTV Smarters Pro or TiviMate from the Play Store and sign in.

Samsung, LG and Hisense
1. Connect the TV to the internet (Settings > Network).
2. Open the TV's app store (Samsung Apps, LG Content Store or VIDAA store) and install Smart IPTV.
3. Open Smart IPTV. It shows the TV's MAC address, for example 1a:2b:3c:4d:5e:6f.
4. Send a photo of that screen to us on WhatsApp.
5. We link your channels to the TV, usually within 15 minutes during support hours.
6. Restart the app and your channel list appears.

Good to know
- Smart IPTV charges a once-off activation fee of its own after its free period. This is paid to the app maker, not to us.
- Older TVs (before 2016) may not run the app well; a Fire Stick or TV box is then the better choice.`,
    sort_order: 4,
  },
  {
    slug: "fix-buffering",
    title: "Fixing buffering and freezing",
    category: "Troubleshooting",
    summary: "Most buffering comes from Wi-Fi or a busy line. Work through these checks in order.",
    body: `1. Check our status page
Open /status. If the streaming service shows a problem, it's on our side and we're already working on it.

2. Run the stream test
Run the stream test from the device that buffers. What you need:
- SD: 10-15 Mbps
- HD: 15-25 Mbps
- Full HD: 25-35 Mbps
- 4K: 35 Mbps or more
Also look at stability: packet loss under 1%, jitter under 30 ms and ping under 150 ms. If these are high, the problem is the connection, not the channel.

3. Improve the Wi-Fi
- Use a network cable between the router and the TV or box if you can.
- Connect to the 5 GHz Wi-Fi network rather than 2.4 GHz, and move the router closer.
- Restart the router and the device: switch off for 30 seconds, then on.

4. Reduce the load
- Pause downloads, updates and other streams on the same connection.
- A line plays one stream at a time: watching on two devices at once on the same line causes freezing.
- Turn off any VPN.

5. Clear the app's cache
In IPTV Smarters or TiviMate, go to Settings and clear the cache, or on Android: Settings > Apps > the player > Storage > Clear cache. Then sign in again if asked.

6. Load-shedding
When power returns, the fibre or LTE router can take a few minutes to get a stable connection. A small UPS for the router keeps you streaming through load-shedding.

Still buffering? Share your stream test result with us on WhatsApp (there's a button on the result) and tell us the channel and the time.`,
    sort_order: 5,
  },
  {
    slug: "paying-by-eft",
    title: "Paying by EFT and renewing",
    category: "Billing & EFT",
    summary: "When you can pay by bank transfer, which reference to use, and when your line activates.",
    body: `When can I pay by EFT?
- On this website: tap Pay Now on a package, check your order and fill in who's paying. When card payments are switched off, that same step gives you our bank details and your own payment reference instead of a card payment page.
- Any time, on request: if you'd rather pay by EFT while card payments are on, ask us on WhatsApp or by e-mail and we'll send you the bank details and your reference.
- Renewing: the client portal offers card or EFT. Choose "Get EFT details" for the bank details and your reference.

Paying
1. Use your payment reference exactly as we give it (it starts with SD): it's how we match your payment to your order.
2. Pay from your banking app.
3. Send the proof of payment to us on WhatsApp to speed things up.

When does my line activate?
- Immediate payments (instant EFT): usually within the hour during support hours.
- Normal EFT between different banks: funds can take 1-2 business days to reflect. We activate as soon as they do.
If you'd rather start at once, pay by card when the card payment page is offered: those payments are confirmed immediately.

Renewing
We remind you 7 days and 1 day before your term ends, on WhatsApp or by e-mail. Renew from the client portal or by ordering again; your new term starts when the current one ends, so you never lose days.

Prices and VAT
Prices are in rand and shown in full on the Pricing page. See the Refund Policy page for cancellations and refunds.`,
    sort_order: 6,
  },
];

export const seedReleases: Row<typeof schema.releases>[] = [
  {
    version: "1.0.0",
    title: "Our new website launches",
    body: `- New storefront with packages, specials and the free 24-hour trial.
- Order form that saves every order and opens WhatsApp for quick help.
- Card payments through a secure payment link, and EFT with a personal reference.
- Downloads page with step-by-step installation guides for each player app.`,
    released_on: "2026-03-09",
  },
  {
    version: "1.1.0",
    title: "Client portal and payment history",
    body: `- Sign in at /client to see your package, expiry date and line details.
- Payment history with every card and EFT payment.
- Renew from the portal, and request channels, films or series you'd like added.
- Renewal reminders 7 days and 1 day before your term ends.`,
    released_on: "2026-07-14",
  },
  {
    version: "1.2.0",
    title: "Status page and a better stream test",
    body: `- New status page at /status with 90 days of history for each service.
- The stream test now checks jitter and packet loss as well as speed, and says which quality your line can handle.
- Share your stream test result on WhatsApp in one tap.
- A help centre with guides for Fire Stick, Smart TVs, buffering and EFT payments.`,
    released_on: "2026-11-02",
  },
];

export const seedImages: Row<typeof schema.imageRegistry>[] = [
  { image_key: "pwa_icon", image_url: "/icon-192.png", alt_text: "App icon" },
  // Logos have no alt text of their own: the pages call them "{company_name} logo".
  { image_key: "hero_logo", image_url: LOGO, alt_text: "" },
  { image_key: "about_company_logo", image_url: LOGO, alt_text: "" },
  { image_key: "footer_logo", image_url: LOGO, alt_text: "" },
  { image_key: "testimonial_avatar", image_url: "/images/avatar.svg", alt_text: "Customer avatar" },
  { image_key: "footer_mascot", image_url: "/images/mascot.svg", alt_text: "Our mascot, a friendly TV, waving" },
].map((image) => ({ ...image, version: 1 }));

// ---- what is only an example --------------------------------------------------------------

/** site_settings key (private_: never public, not in the admin's settings list) of the demo record. */
export const DEMO_CONTENT_KEY = "private_demo_content";

/**
 * What the demo shop says that a real shop must replace before going live: the record seed.ts
 * keeps under DEMO_CONTENT_KEY, as JSON. A row or value is still demo while it reads as seeded
 * (see isStillDemo in seed.ts); the owner replacing or deleting it ends that.
 */
export interface DemoContent {
  /** ids of the demo reviews (testimonials_managed), each with the text it was seeded with */
  testimonials: { id: string; content: string }[];
  /** homepage_content rows by section_name: content keys whose value is only an example */
  homepage: Record<string, Record<string, string>>;
  /** site_branding setting_name → the demo value */
  branding: Record<string, string>;
  /** site_settings key → the placeholder or demo value (bank details, the VAT note) */
  settings: Record<string, string>;
}

/** The demo values of one seed, before the rows have ids. */
export function demoValues(): Omit<DemoContent, "testimonials"> {
  const hero = seedHomepageContent.find((c) => c.section_name === "hero")?.content as Record<string, unknown> | undefined;
  const brandingDemo = ["whatsapp_number", "support_email"];
  // Bank details (placeholders), the VAT note (demo text) and the legal facts (left empty).
  const settingsDemo = (row: Row<typeof schema.siteSettings>) =>
    row.value === PLACEHOLDER || row.key === "vat_note" || /^fill in:/i.test(row.description ?? "");
  return {
    homepage: { hero: { rating_text: String(hero?.rating_text ?? "") } },
    branding: Object.fromEntries(
      seedBranding.filter((b) => brandingDemo.includes(b.setting_name)).map((b) => [b.setting_name, b.setting_value ?? ""]),
    ),
    settings: Object.fromEntries(seedSettings.filter(settingsDemo).map((row) => [row.key, row.value ?? ""])),
  };
}
