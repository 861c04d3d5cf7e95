/** Diagrams more than one browser spec draws. */

/** Nested C4 boundaries with a database inside and relationships leaving them. */
export const C4_ORDERS = `C4Container
  Person(customer, "Customer")
  Enterprise_Boundary(acme, "Acme") {
    System_Boundary(shop, "Shop") {
      Container(orders, "Orders service", "Node.js")
      ContainerDb(ordersDb, "Orders DB", "PostgreSQL")
    }
  }
  System_Ext(pay, "Payments")
  System_Ext(mail, "Email")
  Rel(customer, orders, "Places orders")
  Rel(orders, ordersDb, "Reads and writes")
  Rel(orders, pay, "Charges")
  Rel(orders, mail, "Sends receipts")
`;
