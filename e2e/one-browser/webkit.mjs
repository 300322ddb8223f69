// Every browser file in webkit, with one launch of it (./run.mjs).
import { inOneBrowser } from "./run.mjs";

await inOneBrowser("webkit");
