# Varnish (7.x) in front of Bilingue: keeps what the host's headers say may be kept, and
# does what Varnish alone does not do with them.
#
# - stale-while-revalidate: Varnish's own grace; past s-maxage a page is served stale
#   while it is fetched again in the background.
# - stale-if-error: not implemented by Varnish. Here a page is kept for s-maxage and
#   the longer of stale-while-revalidate and stale-if-error; past stale-while-revalidate
#   it is fetched again before it is answered, unless the origin is down (its health
#   probe fails) or that fetch fails (no connection, a 5xx): then the stale page is
#   served, until stale-if-error has passed too.
# - Purging by key (Surrogate-Key, with xkey from varnish-modules):
#   `curl -X PURGE -H 'xkey: pages-build-ID' http://varnish/` from an address in purgers.
#
# Set the backend to the host: here deploy/service.yaml's Service (Varnish resolves the
# name once, when it loads the VCL; a Service's address does not change), or a load
# balancer; and purgers to the addresses allowed to purge. tests/shipped_vcl.rs and
# tests/cdn.rs run this file as it is, its backend's address replaced.
vcl 4.1;

import std;
import xkey;

backend default {
    .host = "bilingue";
    .port = "80";
    # /readyz: whether the host may be sent traffic. Behind the Service it fails only when
    # no ready replica answers; a lone replica's also fails while it warms up or drains, and
    # then kept pages are served stale and others are 503.
    .probe = {
        .url = "/readyz";
        .interval = 1s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

acl purgers {
    "127.0.0.1";
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        set req.http.n-gone = xkey.purge(req.http.xkey);
        return (synth(200, "Purged " + req.http.n-gone));
    }
    # These mark this VCL's own restarts; a client's are dropped.
    if (req.restarts == 0) {
        unset req.http.bilingue-refresh;
        unset req.http.bilingue-stale-if-error;
    }
    if (req.http.bilingue-stale-if-error) {
        # The fetch failed: any page kept is the answer (a restart keeps req.grace).
        set req.grace = 3650d;
    } else if (req.http.bilingue-refresh) {
        # Past stale-while-revalidate: a kept page is no answer, the origin's is.
        set req.grace = 0s;
    }
}

sub vcl_hit {
    if (obj.ttl >= 0s || req.http.bilingue-stale-if-error) {
        return (deliver);
    }
    # Stale: within stale-while-revalidate (fetched again in the background), or the
    # origin is down (within stale-if-error, or the page would be gone).
    if (obj.ttl + std.duration(obj.http.bilingue-swr + "s", 0s) > 0s
        || !std.healthy(req.backend_hint)) {
        return (deliver);
    }
    set req.http.bilingue-refresh = "1";
    return (restart);
}

sub vcl_backend_response {
    set beresp.http.xkey = beresp.http.surrogate-key;
    # A page fetched again for a stale one (in the background, or past
    # stale-while-revalidate) that fails leaves the stale one in place.
    if (beresp.status >= 500 && (bereq.is_bgfetch || bereq.http.bilingue-refresh)) {
        return (abandon);
    }
    # Varnish reads s-maxage into ttl and stale-while-revalidate into grace. Both
    # stale-while-revalidate and stale-if-error count from the end of s-maxage (RFC 5861):
    # the page is kept for the longer, and remembers its stale-while-revalidate.
    set beresp.http.bilingue-swr = beresp.grace;
    if (beresp.http.cache-control ~ "(^|[ ,])stale-if-error=[0-9]+") {
        set beresp.http.bilingue-sie = regsub(beresp.http.cache-control,
            "^(.*[ ,])?stale-if-error=([0-9]+).*$", "\2s");
        if (std.duration(beresp.http.bilingue-sie, 0s) > beresp.grace) {
            set beresp.grace = std.duration(beresp.http.bilingue-sie, 0s);
        }
        unset beresp.http.bilingue-sie;
    }
}

sub vcl_backend_error {
    if (bereq.is_bgfetch || bereq.http.bilingue-refresh) {
        return (abandon);
    }
}

sub vcl_synth {
    if (resp.status == 503 && req.http.bilingue-refresh && !req.http.bilingue-stale-if-error) {
        set req.http.bilingue-stale-if-error = "1";
        return (restart);
    }
}

sub vcl_deliver {
    if (resp.status >= 500 && req.http.bilingue-refresh && !req.http.bilingue-stale-if-error) {
        set req.http.bilingue-stale-if-error = "1";
        return (restart);
    }
    unset resp.http.bilingue-swr;
}
