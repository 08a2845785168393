package dev.onceonly.internal.db;

import dev.onceonly.internal.config.OnceOnlyConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared JDBC helpers ({@link dev.onceonly.runtime.Jdbc}) for the platform's repositories:
 * their SQL runs on the caller's transaction (inside one, Agroal hands back the connection enlisted
 * in it), and statements name the platform's schema {@value #SCHEMA}, replaced by the configured
 * one ({@code quarkus.onceonly.schema}) once per statement text. A bean of this type only, so that
 * an application is free to produce a {@link dev.onceonly.runtime.Jdbc} of its own.
 */
@Singleton
@Typed(Jdbc.class)
public class Jdbc extends dev.onceonly.runtime.Jdbc {

  /** Where a statement names the platform's schema. */
  public static final String SCHEMA = "{schema}";

  private final String schema;
  private final Map<String, String> statements = new ConcurrentHashMap<>();

  @Inject
  public Jdbc(AgroalDataSource dataSource, OnceOnlyConfig config) {
    this(dataSource, config.schema());
  }

  public Jdbc(AgroalDataSource dataSource, String schema) {
    super(dataSource);
    this.schema = schema;
  }

  /** The platform's schema. */
  public String schema() {
    return schema;
  }

  /** {@code sql} with the configured schema in place of {@value #SCHEMA}. */
  @Override
  public String sql(String sql) {
    return statements.computeIfAbsent(sql, text -> text.replace(SCHEMA, schema));
  }
}
