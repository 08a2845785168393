package dev.onceonly.it.shipping;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One shipment per order: {@code order_id} is the natural key that never expires. */
@Entity
@Table(schema = "shipping", name = "shipments")
public class Shipment extends PanacheEntityBase {

  @Id
  @Column(name = "order_id")
  public String orderId;

  @Column(name = "customer_id", nullable = false)
  public String customerId;

  @Column(name = "weight_grams", nullable = false)
  public long weightGrams;

  public static Shipment of(OrderPlaced order) {
    Shipment shipment = new Shipment();
    shipment.orderId = order.orderId();
    shipment.customerId = order.customerId();
    shipment.weightGrams = order.weightGrams();
    return shipment;
  }
}
