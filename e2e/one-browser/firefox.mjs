// Every browser file in firefox, with one launch of it (./run.mjs).
import { inOneBrowser } from "./run.mjs";

await inOneBrowser("firefox");
