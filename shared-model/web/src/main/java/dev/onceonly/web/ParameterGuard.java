package dev.onceonly.web;

import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Checks every request's parameters before its resource method runs, the same way for every
 * endpoint of both services, so that a new endpoint cannot forget it:
 *
 * <ul>
 *   <li>a query parameter the method does not declare ({@code @QueryParam}) is a 400 that lists the
 *       ones it knows: a typo such as {@code stauts=dead} must not silently widen a listing;
 *   <li>a path or query parameter containing a NUL character is a 400: PostgreSQL refuses NUL in
 *       text, which would otherwise surface as a 500.
 * </ul>
 */
public class ParameterGuard {

  private final Map<Method, Set<String>> declared = new ConcurrentHashMap<>();

  @ServerRequestFilter
  public Optional<Response> check(UriInfo uri, ResourceInfo resource) {
    Method method = resource.getResourceMethod();
    if (method == null) {
      return Optional.empty();
    }
    MultivaluedMap<String, String> query = uri.getQueryParameters();
    Set<String> known = declared.computeIfAbsent(method, ParameterGuard::queryParameters);
    for (String name : query.keySet()) {
      if (!known.contains(name)) {
        return Optional.of(Problem.response(400, unknown(name, known)));
      }
    }
    Optional<Response> nul = nul("query parameter", query);
    return nul.isPresent() ? nul : nul("path parameter", uri.getPathParameters());
  }

  static String unknown(String name, Set<String> known) {
    String use =
        known.isEmpty()
            ? "this endpoint takes no query parameters"
            : "use " + String.join(", ", new TreeSet<>(known));
    String hint =
        "page".equals(name) && known.contains("cursor")
            ? "; pages are keyset-based: pass cursor=<nextCursor of the previous page>"
            : "";
    return "unknown query parameter '" + name + "': " + use + hint;
  }

  private static Optional<Response> nul(String kind, MultivaluedMap<String, String> parameters) {
    for (Map.Entry<String, List<String>> entry : parameters.entrySet()) {
      for (String value : entry.getValue()) {
        if (value != null && value.indexOf('\0') >= 0) {
          return Optional.of(
              Problem.response(400, Params.nulDetail(kind + " '" + entry.getKey() + "'")));
        }
      }
    }
    return Optional.empty();
  }

  private static Set<String> queryParameters(Method method) {
    Set<String> names = new TreeSet<>();
    for (Annotation[] annotations : method.getParameterAnnotations()) {
      for (Annotation annotation : annotations) {
        if (annotation instanceof QueryParam) {
          names.add(((QueryParam) annotation).value());
        }
      }
    }
    return Set.copyOf(names);
  }
}
