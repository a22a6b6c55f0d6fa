// Every GPU entry of the registry, registered from here (called once by registerAll).
export function registerGpu(): void {
}
