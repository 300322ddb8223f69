// The shape of GET /api/status's answer, checked before the status screen reads it.
import type { ServerStatus } from "../routes";
import { objectWithStrings } from "./usable";

/** `value` if it is a ServerStatus; else an error saying what is wrong. */
export function serverStatus(value: unknown): ServerStatus {
  const status = objectWithStrings(value, ["version", "serverTime"], "the status");
  const languages = (status as Record<string, unknown>).languages;
  if (!Array.isArray(languages) || !languages.every((code) => typeof code === "string")) {
    throw new Error('the status: "languages" is not a list of strings');
  }
  if (Number.isNaN(Date.parse(status.serverTime))) throw new Error('the status: "serverTime" is not a time');
  return { version: status.version, languages, serverTime: status.serverTime };
}
