package dev.onceonly.relay.console;

import dev.onceonly.web.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The console's script and style sheet, served behind the same login as its pages (no static route
 * outside the REST layer's security). Plain files, no build step.
 */
@Path("/console/assets")
@RolesAllowed({Roles.VIEWER, Roles.ADMIN})
@Tag(name = "console")
public class ConsoleAssets {

  private final String script = read("console/console.js");
  private final String style = read("console/console.css");

  @GET
  @Path("console.js")
  @Produces("text/javascript")
  @Operation(summary = "The console's script: admin actions and the replay dry run")
  public String script() {
    return script;
  }

  @GET
  @Path("console.css")
  @Produces("text/css")
  @Operation(summary = "The console's style sheet")
  public String style() {
    return style;
  }

  private static String read(String resource) {
    try (InputStream in = ConsoleAssets.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("classpath:" + resource + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
