export { dataTool, defineAgent, type AgentConfig, type DataToolInput } from "./define";
