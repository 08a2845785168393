package dev.onceonly.consumer.db;

import dev.onceonly.runtime.Jdbc;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The loyalty tables' SQL runs through OnceOnly's JDBC helpers ({@link Jdbc}) on the service's data
 * source: inside a handler, Agroal hands back the connection enlisted in the claim's transaction,
 * so balances and ledger rows commit with the claim.
 */
@Singleton
public class Database {

  @Produces
  @Singleton
  Jdbc jdbc(AgroalDataSource dataSource) {
    return new Jdbc(dataSource);
  }
}
