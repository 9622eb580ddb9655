// Queueing-model calculators: M/M/1, M/M/m and MVA of the closed network.
import { MvaCalculator } from "./MvaCalculator";
import { QueueCalculator } from "./QueueCalculator";

export function ModelsPage() {
  return (
    <section>
      <div className="page-header">
        <h1>Models</h1>
      </div>
      <div className="figures">
        <QueueCalculator multi={false} />
        <QueueCalculator multi />
      </div>
      <MvaCalculator />
    </section>
  );
}
