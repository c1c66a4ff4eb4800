export default function Terms() {
  return <h1>Terms</h1>;
}
