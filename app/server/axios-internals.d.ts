// The two steps of axios's own `getUri` that the host's transport takes alone (axios is
// pinned in package.json; its `unsafe/*` export reaches its lib folder).
declare module "axios/unsafe/core/buildFullPath.js" {
  import type { InternalAxiosRequestConfig } from "axios";
  /** The base URL joined to the request's, unless that one is absolute (and allowed). */
  export default function buildFullPath(
    baseURL: string | undefined,
    requestedURL: string | undefined,
    allowAbsoluteUrls: boolean | undefined,
    config: InternalAxiosRequestConfig,
  ): string;
}

declare module "axios/unsafe/helpers/buildURL.js" {
  import type { CustomParamsSerializer, ParamsSerializerOptions } from "axios";
  /** `url` with `params` serialised into its query. */
  export default function buildURL(url: string, params: unknown, options?: ParamsSerializerOptions | CustomParamsSerializer): string;
}
