// The Azure lab's states and transitions, shown on the Testbeds page from the API's one table:
// which action each state allows, the state while a worker carries it out, and where it ends.
import { useGetAzureLabStatesQuery } from "../hooks/useAzureLabs";

export function AzureLabStates() {
  const { states } = useGetAzureLabStatesQuery();
  if (!states) return null;
  return (
    <details className="card" data-testid="azure-lab-states">
      <summary>Azure testbed states and what each allows</summary>
      <table className="table compact">
        <thead>
          <tr>
            <th>action</th>
            <th>from</th>
            <th>while</th>
            <th>to</th>
            <th>what it does</th>
          </tr>
        </thead>
        <tbody>
          {states.data.map((t) => (
            <tr key={`${t.action ?? "auto"}-${t.from_states.join("/")}-${t.to ?? "back"}`}>
              <td>{t.action ?? <span className="hint">(worker)</span>}</td>
              <td>{t.from_states.join(", ")}</td>
              <td>{t.during ?? ""}</td>
              <td>{t.to ?? "back where it was"}</td>
              <td>{t.meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
