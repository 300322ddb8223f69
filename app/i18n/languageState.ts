// The language provider's states, as a pure reducer so the race rules can be tested alone.
import type { Language } from "./languages";
import type { Resources } from "./resources";

export interface Pending {
  language: Language;
  request: number;
  status: "loading" | "failed";
}

export interface LanguageState {
  /** The active language: its resources are loaded and the application shows it. */
  language: Language;
  resources: Resources;
  /** A change under way (spinner) or one whose resources failed to load (error with retry). */
  pending: Pending | null;
}

export type LanguageAction =
  | { type: "requested"; language: Language; request: number }
  | { type: "loaded"; language: Language; request: number; resources: Resources }
  | { type: "failed"; language: Language; request: number };

export function reduceLanguage(state: LanguageState, action: LanguageAction): LanguageState {
  switch (action.type) {
    case "requested":
      return { ...state, pending: { language: action.language, request: action.request, status: "loading" } };
    case "loaded":
      // Only the latest request may land: a slow earlier load never overwrites a later choice.
      if (state.pending?.request !== action.request) return state;
      return { language: action.language, resources: action.resources, pending: null };
    case "failed":
      if (state.pending?.request !== action.request) return state;
      return { ...state, pending: { ...state.pending, status: "failed" } };
  }
}
