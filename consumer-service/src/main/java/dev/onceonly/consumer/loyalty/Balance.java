package dev.onceonly.consumer.loyalty;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A customer's points, read over REST. Writes go through {@link LedgerRepository}. */
@Entity
@Table(name = "balances", schema = "loyalty")
public class Balance extends PanacheEntityBase {

  @Id
  @Column(name = "customer_id")
  public String customerId;

  public long points;

  @Column(name = "updated_at")
  public Instant updatedAt;
}
