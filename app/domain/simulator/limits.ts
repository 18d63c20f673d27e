// Simulator limits shared by the server and the browser's form validation.
/** The longest text the simulator takes (ten concatenated SMS segments). */
export const SIM_BODY_MAX = 1600;
