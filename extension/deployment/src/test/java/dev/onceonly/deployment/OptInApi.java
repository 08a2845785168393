package dev.onceonly.deployment;

import io.quarkus.test.QuarkusUnitTest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * A service that only writes the outbox (no consumer) starts without a broker, and the platform
 * changes nothing of its own HTTP API unless the operator API is switched on: then the service
 * answers by the platform's conventions (an unknown query parameter is a 400 problem) and has the
 * operator endpoints.
 */
final class OptInApi {

  private OptInApi() {}

  /** The service's own endpoint. */
  @Path("/hello")
  public static class Hello {
    @GET
    public String hello() {
      return "hello";
    }
  }

  static QuarkusUnitTest service(boolean api) {
    return new QuarkusUnitTest()
        .withApplicationRoot(jar -> jar.addClasses(OptInApi.class, Hello.class))
        .overrideConfigKey("quarkus.onceonly.api.enabled", Boolean.toString(api))
        .overrideConfigKey("quarkus.onceonly.migrate-at-start", "false")
        .overrideConfigKey("quarkus.http.test-port", "0")
        .overrideConfigKey("quarkus.devservices.enabled", "false")
        // Nothing listens there: the service must start without a database or a broker in reach.
        .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:1/none")
        .overrideConfigKey("rabbitmq-port", "1")
        .overrideConfigKey("quarkus.http.auth.basic", "true")
        .overrideConfigKey("quarkus.security.users.embedded.enabled", "true")
        .overrideConfigKey("quarkus.security.users.embedded.plain-text", "true")
        .overrideConfigKey("quarkus.security.users.embedded.users.viewer", "secret")
        .overrideConfigKey("quarkus.security.users.embedded.roles.viewer", "outbox-viewer");
  }
}
