// @nutui/icons-react-taro's shared icon settings (what its `configure` changes); the package ships no types for its modules.
declare module '@nutui/icons-react-taro/dist/es/icons/internal.js' {
  export const globalConfig: { useSvg: boolean; classPrefix: string; tag: string; fontClassName: string }
}
