package dev.onceonly.relay.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while the outbox schema is there (the database check comes with the datasource). */
@Readiness
@ApplicationScoped
public class SchemaHealthCheck implements HealthCheck {

  private final DataSource dataSource;

  public SchemaHealthCheck(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public HealthCheckResponse call() {
    try (Connection connection = dataSource.getConnection()) {
      List<String> problems = SchemaCheck.problems(connection);
      return HealthCheckResponse.named("outbox-schema")
          .status(problems.isEmpty())
          .withData("problems", String.join("; ", problems))
          .build();
    } catch (SQLException e) {
      return HealthCheckResponse.named("outbox-schema")
          .down()
          .withData("error", String.valueOf(e.getMessage()))
          .build();
    }
  }
}
