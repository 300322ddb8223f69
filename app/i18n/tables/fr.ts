const fr = {
  /** The product's name: keep it as it is, in every language. */
  "app.name": "Bilingue",
  "language.label": "Langue",
  "loading.label": "Chargement…",
  "loading.failed": "Impossible de charger la langue choisie. Vérifiez votre connexion puis réessayez.",
  "loading.retry": "Réessayer",
  "home.title": "Accueil · Bilingue",
  "home.description": "Bilingue rend chaque page sur le serveur, en français ou en anglais, puis l’anime dans votre navigateur.",
  "status.description": "La version du serveur Bilingue, ses langues et son heure, à l’instant.",
  "notFound.description": "Cette adresse ne correspond à aucune page de Bilingue.",
  "home.heading": "Bienvenue sur Bilingue",
  "home.intro": "Cette page a été rendue par le serveur dans votre langue, puis animée dans votre navigateur.",
  "home.languages": "Cette application parle {count, plural, one {# langue} many {# de langues} other {# langues}}.",
  /** Beside the button home.click: how many times it was clicked on this page. */
  "home.clicks": "{count, plural, =0 {Aucun clic pour l’instant} one {# clic} many {# de clics} other {# clics}}",
  "home.click": "Cliquer",
  /** The home page's last line: {date} and {time} are already written in the page's {timeZone}. */
  "home.builtOn": "Version {version}, construite le {date} à {time} ({timeZone}).",
  "home.statusLink": "L’état du serveur",
  "status.title": "État du serveur · Bilingue",
  "status.heading": "État du serveur",
  "status.version": "Version",
  "status.languages": "Langues",
  "status.time": "Heure du serveur",
  "status.reload": "Actualiser",
  "status.unavailable": "L’état du serveur n’a pas pu être obtenu.",
  "status.home": "Retour à l’accueil",
  "status.check": "Vérifier le serveur",
  /** A notification: {time} is the server's date and time, already written in the page's language. */
  "status.ok": "Le serveur répond : version {version}, {time}.",
  /** A notification: {detail} is what the server or the network said, as it said it (often English). */
  "status.failed": "Le serveur ne répond pas : {detail}",
  "screen.failed": "Cet écran n’a pas pu être affiché. Rechargez la page pour réessayer.",
  "notFound.title": "Page introuvable · Bilingue",
  "notFound.heading": "Page introuvable",
  "notFound.text": "Cette adresse ne correspond à aucune page.",
  "notFound.home": "Retour à l’accueil",
  "home.languagePages": "Les pages des langues",
  "navigation.pending": "Chargement de la page…",
  "languages.title": "Une langue de Bilingue · Bilingue",
  "languages.description": "Le nom d’une langue de Bilingue, sa locale, son sens d’écriture, une date et un pluriel écrits dans cette langue.",
  "languages.code": "Code",
  "languages.locale": "Locale",
  "languages.direction": "Sens d’écriture",
  "languages.ltr": "De gauche à droite",
  "languages.rtl": "De droite à gauche",
  "languages.sampleDate": "Une date",
  "languages.samplePluralLabel": "Un pluriel",
  "languages.samplePlural": "{count, plural, one {# langue parlée} many {# de langues parlées} other {# langues parlées}}",
  "languages.unknown": "Langue inconnue",
  "languages.unavailable": "Cette langue n’a pas pu être obtenue.",
  // What the host writes itself (the build puts these in its manifest): plain text only.
  "host.serverError": "Le serveur a rencontré une erreur.",
  "host.comeBackLater": "Le service est momentanément indisponible ; réessayez plus tard.",
  "host.errorPageTitle": "Erreur du serveur",
  "host.errorPageText": "Cette page n’a pas pu être préparée. Réessayez dans un instant.",
};

export default fr;

// The words and formats its dates are written with, fetched in the same chunk.
export { fr as dateLocale } from "date-fns/locale/fr";
