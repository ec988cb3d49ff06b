export function formatLine(name, quantity) {
  return `${name}: ${quantity}`;
}

export function formatReport(inventory) {
  const lines = [];
  for (const [name, quantity] of inventory.items) {
    lines.push(formatLine(name, quantity));
  }
  return lines.join('\n');
}
