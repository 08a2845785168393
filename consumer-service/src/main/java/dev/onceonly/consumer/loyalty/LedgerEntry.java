package dev.onceonly.consumer.loyalty;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** One ledger row, read over REST: positive points credit an order, negative debit a redemption. */
@Entity
@Table(name = "point_ledger", schema = "loyalty")
public class LedgerEntry extends PanacheEntityBase {

  @Id public long id;

  @Column(name = "customer_id")
  public String customerId;

  @Column(name = "order_id")
  public String orderId;

  @Column(name = "redemption_id")
  public String redemptionId;

  public long points;

  @Column(name = "event_id")
  public UUID eventId;

  @Column(name = "message_key")
  public String messageKey;

  @Column(name = "created_at")
  public Instant createdAt;

  /** A customer's entries, oldest first, one page. */
  public static List<LedgerEntry> page(String customerId, int page, int size) {
    return find("customerId", Sort.by("id"), customerId).page(Page.of(page, size)).list();
  }
}
