package dev.onceonly.web;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses a state-changing request (anything but GET, HEAD, OPTIONS) that a browser sent on behalf
 * of another site. Browsers re-send cached Basic credentials (and cookies) with a cross-site form
 * post, so without this a page elsewhere could make a logged-in operator's browser retry, cancel or
 * replay. A browser names the page's origin in {@code Origin} (every cross-origin POST), else in
 * {@code Referer}, and says {@code Sec-Fetch-Site}; a request is refused with a 403 problem when
 * any of them names another origin. Clients that are not browsers (curl, scripts) send none of them
 * and are not affected. Same origin means the scheme-less authority ({@code host:port}) of the
 * request's {@code Host} or, behind a proxy, {@code X-Forwarded-Host} (a page cannot set either on
 * a cross-site request).
 */
@ApplicationScoped
public class CrossSiteGuard {

  /** Before authentication and before anything reads the body. */
  static final int ORDER = -4;

  private static final Set<HttpMethod> SAFE =
      Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  void install(@Observes Router router) {
    router.route().order(ORDER).handler(this::check);
  }

  private void check(RoutingContext context) {
    HttpServerRequest request = context.request();
    Optional<String> refusal =
        SAFE.contains(request.method())
            ? Optional.empty()
            : refusal(
                request.getHeader("Sec-Fetch-Site"),
                request.getHeader(HttpHeaders.ORIGIN),
                request.getHeader(HttpHeaders.REFERER),
                hosts(request));
    if (refusal.isPresent()) {
      context
          .response()
          .setStatusCode(403)
          .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
          .end(Problem.of(403, refusal.get()).json());
      return;
    }
    context.next();
  }

  /** Why a state-changing request must be refused, or empty when it may go on. */
  static Optional<String> refusal(
      String fetchSite, String origin, String referer, List<String> hosts) {
    if (fetchSite != null
        && !Set.of("same-origin", "none").contains(fetchSite.toLowerCase(Locale.ROOT))) {
      return Optional.of(
          "a page of another site (Sec-Fetch-Site: "
              + fetchSite
              + ") may not change anything here: use the console or the API directly");
    }
    if (origin != null) {
      return sameAuthority(origin, hosts)
          ? Optional.empty()
          : Optional.of(
              "a page of another origin ("
                  + origin
                  + ") may not change anything here: use the console or the API directly");
    }
    if (referer != null && !sameAuthority(referer, hosts)) {
      return Optional.of(
          "a request referred by another origin may not change anything here: use the console"
              + " or the API directly");
    }
    return Optional.empty();
  }

  private static boolean sameAuthority(String url, List<String> hosts) {
    try {
      String authority = URI.create(url.strip()).getRawAuthority();
      return authority != null && hosts.stream().anyMatch(authority::equalsIgnoreCase);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The request's own authority, and the one a proxy in front of it was asked for. */
  private static List<String> hosts(HttpServerRequest request) {
    List<String> hosts = new ArrayList<>();
    String host = request.getHeader(HttpHeaders.HOST);
    if (host != null) {
      hosts.add(host.strip());
    }
    String forwarded = request.getHeader("X-Forwarded-Host");
    if (forwarded != null) {
      for (String one : forwarded.split(",")) {
        hosts.add(one.strip());
      }
    }
    return hosts;
  }
}
