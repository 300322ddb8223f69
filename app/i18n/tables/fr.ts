import type { Params } from "../table";

const fr = {
  "app.name": "Bilingue",
  "language.label": "Langue",
  "loading.label": "Chargement…",
  "loading.failed": "Impossible de charger la langue choisie. Vérifiez votre connexion puis réessayez.",
  "loading.retry": "Réessayer",
  "home.title": "Accueil · Bilingue",
  "home.heading": "Bienvenue sur Bilingue",
  "home.intro": "Cette page a été rendue par le serveur dans votre langue, puis animée dans votre navigateur.",
  "home.languages": "Cette application parle {count, plural, one {# langue} other {# langues}}.",
  "home.clicks": "{count, plural, =0 {Aucun clic pour l’instant} one {# clic} other {# clics}}",
  "home.click": "Cliquer",
  "home.builtOn": (p: Params) => `Version ${p.version}, construite le ${p.date} à ${p.time} (${p.timeZone}).`,
  "status.check": "Vérifier le serveur",
  "status.ok": "Le serveur répond : version {version}, {time}.",
  "status.failed": "Le serveur ne répond pas : {detail}",
  "notFound.title": "Page introuvable · Bilingue",
  "notFound.heading": "Page introuvable",
  "notFound.text": "Cette adresse ne correspond à aucune page.",
  "notFound.home": "Retour à l’accueil",
};

export default fr;
