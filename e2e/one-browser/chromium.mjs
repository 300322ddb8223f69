// Every browser file in chromium, with one launch of it (./run.mjs).
import { inOneBrowser } from "./run.mjs";

await inOneBrowser("chromium");
