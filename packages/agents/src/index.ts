// The scripted agents are a Python script that runs inside the scripted-agent image
// (see scripted/assay_agent.py and README.md); this module only locates it.
import { fileURLToPath } from 'node:url';

/** The entry script, run as `python3 /opt/assay/assay_agent.py` in the container. */
export const SCRIPTED_AGENT_SCRIPT = fileURLToPath(new URL('../scripted/assay_agent.py', import.meta.url));
